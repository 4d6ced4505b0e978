import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterCommit, type Tx } from '@sleepweave/event-store';
import type { CommunityContext } from '../context.ts';
import { membershipStreamPrefix } from '../memberships/membership.ts';
import { countStudyStart, moveActiveMember } from '../stats/rollups.ts';
import { participantStreamId } from '../study-completions/participant.ts';
import { refreshThreadActivity } from '../threads/projections.ts';
import { threadStreamId } from '../threads/thread.ts';

/** `community.thread.changed` for the bus: no event of ours, nothing stored. */
function threadChangedNotice(threadId: string, changedAt: string): EventEnvelope<'community.thread.changed'> {
  return {
    id: randomUUID(),
    type: 'community.thread.changed',
    version: 1,
    source: 'community',
    subject: threadStreamId(threadId),
    time: changedAt,
    correlationId: null,
    causationId: null,
    data: { threadId, changedAt },
  };
}

/**
 * A user deleted her account (docs/data-protection.md; the rule for threads is in
 * docs/community.md): in the transaction of the inbox row, her memberships and messages
 * go (streams and rows), and so does her study participation. A thread she created stays
 * for the others in it, no longer linked to her; a thread left with no member at all
 * (hers alone, or a direct thread nobody is left in) is deleted with its stream. The
 * pinned welcome thread belongs to nobody and always stays.
 */
export async function onUserDeleted(ctx: CommunityContext, tx: Tx, userId: string): Promise<void> {
  const touched = await tx<{ thread_id: string }[]>`
    select thread_id from thread_members where user_id = ${userId}
    union
    select id from message_threads where created_by = ${userId}`;
  const ids = touched.map((row) => row.thread_id);
  // Their rows first, before anything a post also takes (her streams, the day counts), and
  // in one order (two deletions never wait for each other in a circle): a join or a post in
  // one of them takes its thread's row first (memberships/commands.ts) and then the day
  // counts, so the two take turns instead of each holding what the other waits for (a
  // deadlock: one of them failed); the counts below and the test for an empty thread see
  // it, and a thread deleted here is gone for it.
  if (ids.length > 0) await tx`select id from message_threads where id in ${tx(ids)} order by id for no key update`;

  await ctx.store.deleteStreamsByPrefix(membershipStreamPrefix(userId), tx);
  await ctx.store.deleteStreams([participantStreamId(userId)], tx);
  await tx`delete from messages where sender_id = ${userId}`;
  const left = await tx<{ thread_id: string }[]>`delete from thread_members where user_id = ${userId} returning thread_id`;
  const [activity] = await tx<{ day: string }[]>`
    delete from member_activity where user_id = ${userId} returning (last_posted_at at time zone 'UTC')::date::text as day`;
  if (activity) await moveActiveMember(tx, activity.day, null);
  const [participant] = await tx<{ start_date: string }[]>`
    delete from study_participants where user_id = ${userId} returning study_start_date::text as start_date`;
  if (participant) await countStudyStart(tx, participant.start_date, -1);
  await tx`update message_threads set created_by = null where created_by = ${userId}`;
  // Events of threads she created (kept for the others) name her in their metadata.
  await ctx.store.eraseUserFromMetadata(userId, tx);

  if (ids.length === 0) return;
  // Their member counts and last messages, without hers.
  await refreshThreadActivity(
    tx,
    ids,
    left.map((row) => row.thread_id),
  );
  const empty = await tx<{ id: string }[]>`
    select t.id from message_threads t
    where t.id in ${tx(ids)} and not t.pinned
      and not exists (select 1 from thread_members m where m.thread_id = t.id)`;
  const emptyIds = empty.map((row) => row.id);
  if (emptyIds.length > 0) {
    await ctx.store.deleteStreams(emptyIds.map(threadStreamId), tx);
    await tx`delete from messages where thread_id in ${tx(emptyIds)}`;
    await tx`delete from message_threads where id in ${tx(emptyIds)}`;
  }
  // The screens that have one of the others open take in only new messages: they are told
  // to load it again (through the bus and the gateway), so that hers do not stay on them.
  // Published once this has committed, and not stored: an event written here would link her
  // deletion (its transaction) to the threads she was in for as long as they stay.
  const changedAt = new Date().toISOString();
  const notices = ids.filter((id) => !emptyIds.includes(id)).map((threadId) => threadChangedNotice(threadId, changedAt));
  afterCommit(tx, async () => {
    for (const notice of notices) {
      await ctx.bus
        ?.publish(notice)
        .catch((err: unknown) => ctx.logger.warn({ err, threadId: notice.data.threadId }, 'thread change notice not published'));
    }
  });
}
