import type { Tx } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { REMOVED_AT_ONCE, removeInBatches } from '../expired-rows.ts';
import { sessionStreamId } from './session.ts';

/**
 * How long a session is kept after it ended (revoked, or expired): its `session:<id>`
 * stream (the hashes of every refresh token it had, one event a renewal) and its rows in
 * `sessions` and `session_retired_tokens`. Past that nothing can use them: its refresh
 * tokens are refused whether it is there or not (ended, or unknown), and the access tokens
 * it signed lived an hour at most (ACCESS_TOKEN_TTL_SECONDS), so the gateway no longer
 * needs to hear of its revocation either. Kept forever, a participant who stays signed in
 * would leave some hundred rows and events a month for good (docs/decisions.md).
 */
export const ENDED_SESSION_KEPT_MS = 24 * 60 * 60_000;

/** The sessions ended by `endedBy`, as many as one transaction removes, oldest first, locked. */
export function endedSessions(sql: Sql | Tx, endedBy: Date) {
  const q = sql as Sql;
  return q<{ id: string }[]>`
    select id from sessions where least(expires_at, revoked_at) <= ${endedBy}
    order by least(expires_at, revoked_at)
    limit ${REMOVED_AT_ONCE}
    for update skip locked`;
}

/**
 * Removes the sessions that ended before `now` less {@link ENDED_SESSION_KEPT_MS}, oldest
 * first, {@link REMOVED_AT_ONCE} a transaction until none is left; returns how many went.
 * Found along `sessions_ended_at`; those another instance is removing are passed over.
 */
export async function removeEndedSessions(ctx: Pick<IdentityContext, 'sql' | 'store'>, now: Date): Promise<number> {
  const endedBy = new Date(now.getTime() - ENDED_SESSION_KEPT_MS);
  return removeInBatches(ctx.sql, async (tx) => {
    // (the events' table is held first: removeInBatches) then the sessions' rows, their
    // streams, their tokens, in the order a deletion takes them
    const ended = await endedSessions(tx, endedBy);
    if (ended.length === 0) return 0;
    const ids = ended.map((row) => row.id);
    // a command on one of the streams under way finishes first (for a session over a day
    // past its end, only one that is refused)
    await ctx.store.deleteStreams(ids.map(sessionStreamId), tx);
    await tx`delete from session_retired_tokens where session_id = any(${ids}::uuid[])`;
    await tx`delete from sessions where id = any(${ids}::uuid[])`;
    return ids.length;
  });
}
