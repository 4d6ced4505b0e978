import type { Role } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import { hashToken } from './tokens.ts';

/** An active session for a refresh token that is its current one, with the user's current role. */
export async function findActiveSession(sql: Sql, refreshToken: string, now = new Date()) {
  const [row] = await sql<{ id: string; user_id: string; role: Role }[]>`
    select s.id, s.user_id, u.role
    from sessions s join users u on u.id = s.user_id
    where s.refresh_token_hash = ${hashToken(refreshToken)} and s.revoked_at is null and s.expires_at > ${now}`;
  return row;
}

/** The session a refresh token belongs or belonged to (current or retired), whatever its state. */
export async function findSessionOfToken(sql: Sql, tokenHash: string) {
  const [row] = await sql<{ id: string; user_id: string; role: Role; expires_at: Date }[]>`
    select s.id, s.user_id, u.role, s.expires_at
    from sessions s join users u on u.id = s.user_id
    where s.refresh_token_hash = ${tokenHash}
       or s.id = (select session_id from session_retired_tokens where refresh_token_hash = ${tokenHash})`;
  return row;
}

/** Whether `tokenHash` is the session's refresh token now (not one it retired). */
export async function isCurrentRefreshToken(sql: Sql, sessionId: string, tokenHash: string): Promise<boolean> {
  const [row] = await sql<
    { current: boolean }[]
  >`select refresh_token_hash = ${tokenHash} as current from sessions where id = ${sessionId}`;
  return row?.current ?? false;
}
