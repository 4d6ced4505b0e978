-- ADMIN_EMAILS is read once per address (docs/decisions.md): the first start that lists an
-- address grants the role to its account, if it has one by then, and no later start does.
-- So a role revoked from /admin stays revoked, and an address listed before anyone
-- registered it is not handed to whoever registers it first (e-mail addresses are not
-- verified); npm run admin:grant grants it once she has.
create table admin_emails_read (
  email text primary key,
  read_at timestamptz not null,
  granted boolean not null
);
