import { LAST_MESSAGE_PREVIEW_LENGTH, STUDY_TEAM_ID } from '@sleepweave/contracts';
import { defineProjection, type Tx } from '@sleepweave/event-store';
import type { MembershipEvent } from '../memberships/membership.ts';
import type { TeamMessagePosted, ThreadEvent } from './thread.ts';

/** The card's preview: one character more than it shows, to know whether to add an ellipsis. */
const PREVIEW = LAST_MESSAGE_PREVIEW_LENGTH + 1;

/** A message as the thread's last one: by (time, id), whatever order posts commit in. */
interface LastMessage {
  id: string;
  body: string;
  /** As the event has it (ISO), and in ms for comparing. */
  postedAt: string;
  at: number;
}

/** What a rebuild keeps of a thread until its end: the figures an append updates at each event. */
interface ReplayedThread {
  members: number;
  last: LastMessage | null;
  lastMemberAt: { postedAt: string; at: number } | null;
}

/** Whether message `a` comes after `b`, as PostgreSQL orders (timestamptz, uuid): uuids as their lowercase hex. */
const isLater = (a: { at: number; id: string }, b: { at: number; id: string }) =>
  a.at !== b.at ? a.at > b.at : a.id.toLowerCase() > b.id.toLowerCase();

/**
 * The `message_threads` read model; its creator comes from her (creator) membership. It
 * also keeps what the thread list and Community Stats need, so no request reads the
 * messages (docs/community.md, "Growth"): the member count, the last message (by
 * (time, id), whatever order posts commit in), the last member message (the study team's
 * do not count in Discussions Today) and its activity (last message, else creation).
 * A rebuild keeps the count and the last messages in memory and writes each thread's once
 * at its end: updated at each event, the welcome thread's row (every user is a member)
 * made a rebuild's time grow with the square of the users (libs/event-store, `replay`).
 */
export const threadsProjection = defineProjection<ThreadEvent | MembershipEvent | TeamMessagePosted, Map<string, ReplayedThread>>({
  name: 'threads',
  tables: ['message_threads'],
  handles: ['ThreadCreated', 'MemberJoined', 'MessagePosted', 'TeamMessagePosted'],
  async apply(tx, event, replay) {
    const replayed = (threadId: string) => {
      let thread = replay!.get(threadId);
      if (!thread) replay!.set(threadId, (thread = { members: 0, last: null, lastMemberAt: null }));
      return thread;
    };
    switch (event.type) {
      case 'ThreadCreated': {
        const d = event.data;
        await tx`
          insert into message_threads (id, name, is_direct, pinned, created_at, activity_at)
          values (${d.threadId}, ${d.name}, ${d.isDirect}, ${d.pinned}, ${d.createdAt}, ${d.createdAt})`;
        return;
      }
      case 'MemberJoined': {
        // One MemberJoined per membership stream: each is one more member.
        const d = event.data;
        if (replay) {
          replayed(d.threadId).members += 1;
          if (d.role === 'creator') await tx`update message_threads set created_by = ${d.userId} where id = ${d.threadId}`;
          return;
        }
        await tx`
          update message_threads
          set member_count = member_count + 1,
              created_by = case when ${d.role} = 'creator' then ${d.userId}::uuid else created_by end
          where id = ${d.threadId}`;
        return;
      }
      case 'MessagePosted':
      case 'TeamMessagePosted': {
        const d = event.data;
        if (replay) {
          const thread = replayed(d.threadId);
          const message = { id: d.messageId, body: d.body, postedAt: d.postedAt, at: Date.parse(d.postedAt) };
          if (!thread.last || isLater(message, thread.last)) thread.last = message;
          if (d.senderId !== STUDY_TEAM_ID && (!thread.lastMemberAt || message.at > thread.lastMemberAt.at)) {
            thread.lastMemberAt = { postedAt: d.postedAt, at: message.at };
          }
          return;
        }
        await tx`
          update message_threads
          set last_message_id = ${d.messageId}, last_message_preview = left(${d.body}, ${PREVIEW}),
              last_message_at = ${d.postedAt}, activity_at = ${d.postedAt}
          where id = ${d.threadId}
            and (last_message_at is null or (last_message_at, last_message_id) < (${d.postedAt}::timestamptz, ${d.messageId}::uuid))`;
        if (d.senderId !== STUDY_TEAM_ID) {
          await tx`
            update message_threads set last_member_message_at = greatest(last_member_message_at, ${d.postedAt}::timestamptz)
            where id = ${d.threadId}`;
        }
        return;
      }
    }
  },
  replay: {
    start: () => new Map(),
    async end(tx, threads) {
      // one update a thread (a thread's events without its creation change nothing, as appended)
      for (const [threadId, { members, last, lastMemberAt }] of threads) {
        await tx`
          update message_threads
          set member_count = ${members},
              last_message_id = ${last?.id ?? null}, last_message_preview = left(${last?.body ?? null}, ${PREVIEW}),
              last_message_at = ${last?.postedAt ?? null}, activity_at = coalesce(${last?.postedAt ?? null}::timestamptz, created_at),
              last_member_message_at = ${lastMemberAt?.postedAt ?? null}
          where id = ${threadId}`;
      }
    },
  },
});

/**
 * What `threadsProjection` keeps of these threads, after a user's deletion took her
 * memberships (of the threads `left`) and messages away: the same values a rebuild from the
 * remaining events gives. A thread she left has one member fewer (the count grows by one
 * with each membership; counting the members again read all of the welcome thread's, which
 * everyone is in); its last messages are found again along the messages' index.
 */
export async function refreshThreadActivity(tx: Tx, threadIds: string[], left: string[]): Promise<void> {
  if (threadIds.length === 0) return;
  await tx`
    update message_threads t
    set member_count = t.member_count - (t.id = any(${left}::uuid[]))::int,
        last_message_id = last.id,
        last_message_preview = left(last.body, ${PREVIEW}),
        last_message_at = last.created_at,
        last_member_message_at = (
          select max(created_at) from messages m where m.thread_id = t.id and m.sender_id <> ${STUDY_TEAM_ID}),
        activity_at = coalesce(last.created_at, t.created_at)
    from message_threads t2
    left join lateral (
      select id, body, created_at from messages where thread_id = t2.id order by created_at desc, id desc limit 1
    ) last on true
    where t.id = t2.id and t.id in ${tx(threadIds)}`;
}
