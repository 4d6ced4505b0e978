import { randomBytes } from 'node:crypto';
import type { Sql } from '@sleepweave/service-kit';
import { pruneExpiredRows } from '../expired-rows.ts';

/** A reset token: 256 bits from the CSPRNG, URL-safe. Only its SHA-256 is ever stored. */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface ResetTokenRow {
  id: string;
  user_id: string;
  expires_at: Date;
  used_at: Date | null;
}

/** The token with this hash, whatever its state (the decider judges it). */
export async function findResetToken(sql: Sql, tokenHash: string): Promise<ResetTokenRow | undefined> {
  const [row] = await sql<ResetTokenRow[]>`
    select id, user_id, expires_at, used_at from password_reset_tokens where token_hash = ${tokenHash}`;
  return row;
}

export function isUsable(row: ResetTokenRow | undefined, now: Date): row is ResetTokenRow {
  return row !== undefined && row.used_at === null && row.expires_at > now;
}

/**
 * Per-e-mail limit on forgot-password requests: counted for whatever e-mail is typed,
 * registered or not, so the limit itself tells nothing. Records the request when allowed.
 */
export async function allowResetRequest(sql: Sql, email: string, max: number, windowMinutes: number, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - windowMinutes * 60_000);
  return sql.begin(async (tx) => {
    // one request at a time per e-mail, so two at once cannot both slip under the limit
    await tx`select pg_advisory_xact_lock(hashtext('password_reset_requests'), hashtext(${email}))`;
    await pruneExpiredRows(tx, 'password_reset_requests', since);
    const [row] = await tx<{ count: number }[]>`
      select count(*)::int as count from password_reset_requests where email = ${email} and requested_at > ${since}`;
    if ((row?.count ?? 0) >= max) return false;
    await tx`insert into password_reset_requests (email, requested_at) values (${email}, ${now})`;
    return true;
  }) as Promise<boolean>;
}
