-- Reset links a day past their expiry go with their streams, oldest first, found along this
-- index (src/password-reset/retention.ts).
create index password_reset_tokens_expires_at on password_reset_tokens (expires_at);
