import { defineProjection } from '@sleepweave/event-store';
import { moveActiveMember } from '../stats/rollups.ts';
import type { TeamMessagePosted } from '../threads/thread.ts';
import type { MembershipEvent } from './membership.ts';

/** A member's last post as a rebuild keeps it until its end: as the event has it (ISO), and in ms. */
type LastPost = { postedAt: string; at: number };

/**
 * The `thread_members` and `messages` read models, `member_activity` (when each member
 * last posted) and `member_activity_days` (how many members last posted on each day:
 * Active Members sums these, never the messages). `messages` also holds the study team's
 * messages, which are recorded in the thread's own stream (TeamMessagePosted).
 * A rebuild keeps each member's last post in memory and writes the two activity tables at
 * its end: updated at each post, a day's row (and a member's) made a rebuild's time grow
 * with the square of its posts (libs/event-store, `replay`).
 */
export const membershipsProjection = defineProjection<MembershipEvent | TeamMessagePosted, Map<string, LastPost>>({
  name: 'memberships',
  tables: ['thread_members', 'messages', 'member_activity', 'member_activity_days'],
  handles: ['MemberJoined', 'MessagePosted', 'TeamMessagePosted'],
  async apply(tx, event, replay) {
    switch (event.type) {
      case 'MemberJoined': {
        const d = event.data;
        await tx`
          insert into thread_members (thread_id, user_id, joined_at)
          values (${d.threadId}, ${d.userId}, ${d.joinedAt})
          on conflict do nothing`;
        return;
      }
      case 'MessagePosted':
      case 'TeamMessagePosted': {
        const d = event.data;
        await tx`
          insert into messages (id, thread_id, sender_id, body, created_at)
          values (${d.messageId}, ${d.threadId}, ${d.senderId}, ${d.body}, ${d.postedAt})`;
        // The study team (TeamMessagePosted) is no member: it is never active.
        if (event.type !== 'MessagePosted') return;
        if (replay) {
          const at = Date.parse(d.postedAt);
          const kept = replay.get(d.senderId);
          if (!kept || at > kept.at) replay.set(d.senderId, { postedAt: d.postedAt, at });
          return;
        }
        // Her last post's day (UTC) before and after: the day rollup moves her when it changes.
        // Her row is held first, made if this is her first post: of two first posts of hers
        // at once (two threads), the second waits for the first's row and then moves her
        // from its day, instead of counting her as new a second time.
        const lastDay = () => tx<{ day: string }[]>`
          select (last_posted_at at time zone 'UTC')::date::text as day from member_activity
          where user_id = ${d.senderId} for update`;
        let [before] = await lastDay();
        if (!before) {
          const [first] = await tx<{ day: string }[]>`
            insert into member_activity (user_id, last_posted_at) values (${d.senderId}, ${d.postedAt})
            on conflict (user_id) do nothing
            returning (last_posted_at at time zone 'UTC')::date::text as day`;
          if (first) {
            await moveActiveMember(tx, null, first.day);
            return;
          }
          [before] = await lastDay();
        }
        const [after] = await tx<{ day: string }[]>`
          insert into member_activity (user_id, last_posted_at) values (${d.senderId}, ${d.postedAt})
          on conflict (user_id) do update set last_posted_at = greatest(member_activity.last_posted_at, excluded.last_posted_at)
          returning (last_posted_at at time zone 'UTC')::date::text as day`;
        await moveActiveMember(tx, before?.day ?? null, after!.day);
        return;
      }
    }
  },
  replay: {
    start: () => new Map(),
    async end(tx, lastPosts) {
      const members = [...lastPosts];
      for (let from = 0; from < members.length; from += ACTIVITY_ROWS_AT_ONCE) {
        const some = members.slice(from, from + ACTIVITY_ROWS_AT_ONCE);
        await tx`
          insert into member_activity (user_id, last_posted_at)
          select * from unnest(${some.map(([userId]) => userId)}::uuid[], ${some.map(([, post]) => post.postedAt)}::timestamptz[])`;
      }
      // each member on the day of her last post, as moveActiveMember keeps them
      await tx`
        insert into member_activity_days (day, members)
        select (last_posted_at at time zone 'UTC')::date, count(*) from member_activity group by 1`;
    },
  },
});

/** Members' last posts written by one statement at the end of a rebuild. */
const ACTIVITY_ROWS_AT_ONCE = 10_000;
