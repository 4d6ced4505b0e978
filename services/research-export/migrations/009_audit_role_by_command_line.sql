-- A role change from the command line (npm run admin:grant, ADMIN_EMAILS) is shown as such;
-- one by an admin whose account was deleted since, as "a deleted account". Both have no actor
-- id, so how it was made is kept apart (identity's `via`). Entries from before: a role change
-- with no actor is taken for the command line, as it was shown.
alter table admin_audit add column if not exists by_command_line boolean not null default false;
update admin_audit set by_command_line = true
where action in ('role_granted', 'role_revoked') and actor_id is null and not by_command_line;
