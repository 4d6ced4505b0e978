import { LAST_MESSAGE_PREVIEW_LENGTH, STUDY_TEAM_ID } from '@sleepweave/contracts';
import { defineProjection, type Tx } from '@sleepweave/event-store';
import type { MembershipEvent } from '../memberships/membership.ts';
import type { TeamMessagePosted, ThreadEvent } from './thread.ts';

/** The card's preview: one character more than it shows, to know whether to add an ellipsis. */
const PREVIEW = LAST_MESSAGE_PREVIEW_LENGTH + 1;

/**
 * The `message_threads` read model; its creator comes from her (creator) membership. It
 * also keeps what the thread list and Community Stats need, so no request reads the
 * messages (docs/community.md, "Growth"): the member count, the last message (by
 * (time, id), whatever order posts commit in), the last member message (the study team's
 * do not count in Discussions Today) and its activity (last message, else creation).
 */
export const threadsProjection = defineProjection<ThreadEvent | MembershipEvent | TeamMessagePosted>({
  name: 'threads',
  tables: ['message_threads'],
  handles: ['ThreadCreated', 'MemberJoined', 'MessagePosted', 'TeamMessagePosted'],
  async apply(tx, event) {
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
