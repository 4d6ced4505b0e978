import type { Tx } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { REMOVED_AT_ONCE, removeInBatches } from '../expired-rows.ts';
import { resetLinkStreamId } from './reset-link.ts';

/**
 * How long a reset link is kept after it expired: its `password_reset:<tokenId>` stream and
 * its `password_reset_tokens` row (the hash of its token, whom it was for, until when).
 * Past its expiry the link is refused whether it is there or not. Kept forever, a stranger
 * asking for links to her address every five minutes (the per-e-mail limit) left some
 * 100,000 a year.
 */
export const EXPIRED_LINK_KEPT_MS = 24 * 60 * 60_000;

/** The links expired by `expiredBy`, as many as one transaction removes, oldest first, locked. */
export function expiredLinks(sql: Sql | Tx, expiredBy: Date) {
  const q = sql as Sql;
  return q<{ id: string }[]>`
    select id from password_reset_tokens where expires_at <= ${expiredBy}
    order by expires_at
    limit ${REMOVED_AT_ONCE}
    for update skip locked`;
}

/**
 * Removes the links that expired before `now` less {@link EXPIRED_LINK_KEPT_MS}, oldest
 * first, along `password_reset_tokens_expires_at`; returns how many went. A link's stream
 * takes no command once written, so it goes without its lock. (Rows of links recorded in a
 * `user:` stream before 2026-12-06 go too; their events stay with her stream.)
 */
export async function removeExpiredResetLinks(ctx: Pick<IdentityContext, 'sql' | 'store'>, now: Date): Promise<number> {
  const expiredBy = new Date(now.getTime() - EXPIRED_LINK_KEPT_MS);
  const removed = await removeInBatches(ctx.sql, async (tx) => {
    const ids = (await expiredLinks(tx, expiredBy)).map((row) => row.id);
    if (ids.length === 0) return 0;
    await ctx.store.deleteStreams(ids.map(resetLinkStreamId), tx, { settled: true });
    await tx`delete from password_reset_tokens where id = any(${ids}::uuid[])`;
    return ids.length;
  });
  return removed + (await removeOrphanedLinks(ctx.sql, expiredBy));
}

/**
 * Link streams whose row is gone, past their day: an identity instance of before link
 * streams (a rolling deploy) deletes an account's rows but knows nothing of her links'
 * streams, which no row then names. Found among every link held (along
 * `events_stream_prefix_idx`: a day's links), after the events' table is taken (a rebuild
 * of the rows under way is waited for, not read half done).
 */
async function removeOrphanedLinks(sql: Sql, expiredBy: Date): Promise<number> {
  const prefix = resetLinkStreamId('');
  const end = `${prefix.slice(0, -1)};`; // the next id after every `password_reset:…` in byte order
  return (await sql.begin(async (tx) => {
    await tx`lock table events in row exclusive mode`;
    const { count } = await tx`
      delete from events
      where stream_id ~>=~ ${prefix} and stream_id ~<~ ${end}
        and type = 'PasswordResetRequested' and (data->>'expiresAt')::timestamptz <= ${expiredBy}
        and not exists (select from password_reset_tokens where id::text = events.data->>'tokenId')`;
    return count;
  })) as number;
}
