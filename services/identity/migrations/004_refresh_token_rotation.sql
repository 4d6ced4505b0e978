-- Refresh tokens are rotated on every use (docs/decisions.md, Sessions and tokens): the
-- hashes a session has used before, so that one presented again (a stolen copy, or the
-- thief's after she used hers) is recognised and ends the session.
create table session_retired_tokens (
  refresh_token_hash text primary key,
  session_id uuid not null,
  retired_at timestamptz not null
);
create index session_retired_tokens_session on session_retired_tokens (session_id);
