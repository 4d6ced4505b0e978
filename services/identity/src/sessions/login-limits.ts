import { clientAddress, type Sql } from '@sleepweave/service-kit';
import { pruneExpiredRows } from '../expired-rows.ts';

/**
 * Where sign-in attempts come from, as the limits count them: the address, an IPv6 one by
 * its /64 (one subscriber's network), as every per-address limit does.
 */
export const loginClient = clientAddress;

export interface LoginLimits {
  /** Failures per account from one client within the window. */
  perClient: number;
  /** Failures per account from every client together within the window. */
  perAccount: number;
  windowMinutes: number;
}

/**
 * Per-account sign-in limits: attempts are counted for whatever e-mail was typed
 * (registered or not), so a limit tells nothing about who is registered. `perClient` from
 * one client: someone failing on purpose locks the account for herself, not for its owner
 * signing in from elsewhere; `perAccount` from all of them together: a guesser spread over
 * many addresses.
 *
 * An attempt is reserved before the password is checked, under a lock per e-mail, so
 * parallel requests cannot all pass the check while the slow hash runs. A successful
 * sign-in clears the reservations of that e-mail.
 */
export async function reserveLoginAttempt(
  sql: Sql,
  attempt: { email: string; client: string },
  limits: LoginLimits,
  now = new Date(),
): Promise<boolean> {
  const { email, client } = attempt;
  const since = new Date(now.getTime() - limits.windowMinutes * 60_000);
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('login:' || ${email}))`;
    await pruneExpiredRows(tx, 'login_failures', since);
    const [row] = await tx<{ all: number; here: number }[]>`
      select count(*)::int as all, (count(*) filter (where client = ${client}))::int as here
      from login_failures where email = ${email} and failed_at > ${since}`;
    if ((row?.here ?? 0) >= limits.perClient || (row?.all ?? 0) >= limits.perAccount) return false;
    await tx`insert into login_failures (email, client, failed_at) values (${email}, ${client}, ${now})`;
    return true;
  });
}

export async function clearLoginFailures(sql: Sql, email: string): Promise<void> {
  await sql`delete from login_failures where email = ${email}`;
}
