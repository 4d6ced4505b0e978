-- The admins, for "never the last admin" (a role's revocation, an admin's deletion): they
-- were counted by reading every user (no index on role), under the role changes' lock.
create index users_admins on users (id) where role = 'admin';
