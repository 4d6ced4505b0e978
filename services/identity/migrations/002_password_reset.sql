-- Password-reset links (read model of PasswordResetRequested / PasswordReset / PasswordChanged).
-- Only the SHA-256 of a token is stored; the token itself exists only in the e-mail.
create table password_reset_tokens (
  id uuid primary key,
  user_id uuid not null,
  token_hash text not null unique,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  -- set when the link was used, or voided because the password changed meanwhile
  used_at timestamptz
);
create index password_reset_tokens_user_id on password_reset_tokens (user_id);

-- Forgot-password requests per e-mail (as typed, normalised), for the per-e-mail limit.
-- Kept for whatever e-mail is typed, so the limit answers the same for unknown accounts;
-- rows older than the window are removed on the next request.
create table password_reset_requests (
  email text not null,
  requested_at timestamptz not null
);
create index password_reset_requests_email_time on password_reset_requests (email, requested_at);
