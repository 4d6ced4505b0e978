-- Every read model can be rebuilt on its own (`npm run projections:rebuild`): rebuilding
-- `users` truncates that table, which PostgreSQL refuses while `sessions` references it.
-- A new session checks (and share-locks) her users row in its own transaction instead
-- (sessions/commands.ts), and UserDeleted removes her sessions explicitly.
alter table sessions drop constraint if exists sessions_user_id_fkey;
