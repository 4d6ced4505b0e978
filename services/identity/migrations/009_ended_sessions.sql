-- Sessions a day past their end (revoked, or expired) go with their streams, oldest first,
-- found along this index (src/sessions/retention.ts): `least` passes over a null revoked_at,
-- so a session ends at its revocation or its expiry, whichever came first.
create index sessions_ended_at on sessions (least(expires_at, revoked_at));
