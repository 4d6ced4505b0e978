import type { Sql } from '@sleepweave/service-kit';

/**
 * Per-account sign-in limit: failures are counted for whatever e-mail was typed
 * (registered or not), so the limit itself tells nothing about who is registered.
 */
export async function accountIsLocked(sql: Sql, email: string, maxFailures: number, windowMinutes: number, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - windowMinutes * 60_000);
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from login_failures where email = ${email} and failed_at > ${since}`;
  return (row?.count ?? 0) >= maxFailures;
}

export async function recordLoginFailure(sql: Sql, email: string, windowMinutes: number, now = new Date()): Promise<void> {
  const expired = new Date(now.getTime() - windowMinutes * 60_000);
  await sql`delete from login_failures where failed_at < ${expired}`;
  await sql`insert into login_failures (email, failed_at) values (${email}, ${now})`;
}

export async function clearLoginFailures(sql: Sql, email: string): Promise<void> {
  await sql`delete from login_failures where email = ${email}`;
}
