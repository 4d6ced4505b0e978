import type { Sql } from '@sleepweave/service-kit';

/**
 * Per-account sign-in limit: attempts are counted for whatever e-mail was typed
 * (registered or not), so the limit itself tells nothing about who is registered.
 *
 * An attempt is reserved before the password is checked, under a lock per e-mail, so
 * parallel requests cannot all pass the check while the slow hash runs: at most
 * `maxFailures` guesses per window, however many arrive at once. A successful sign-in
 * clears the reservations of that e-mail.
 */
export async function reserveLoginAttempt(
  sql: Sql,
  email: string,
  maxFailures: number,
  windowMinutes: number,
  now = new Date(),
): Promise<boolean> {
  const since = new Date(now.getTime() - windowMinutes * 60_000);
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('login:' || ${email}))`;
    await tx`delete from login_failures where email = ${email} and failed_at <= ${since}`;
    const [row] = await tx<{ count: number }[]>`select count(*)::int as count from login_failures where email = ${email}`;
    if ((row?.count ?? 0) >= maxFailures) return false;
    await tx`insert into login_failures (email, failed_at) values (${email}, ${now})`;
    return true;
  });
}

export async function clearLoginFailures(sql: Sql, email: string): Promise<void> {
  await sql`delete from login_failures where email = ${email}`;
}
