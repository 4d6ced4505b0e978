import { type CommunityStats, type Timezone } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';

/** How far back a member counts as active. */
export const ACTIVE_MEMBER_DAYS = 30;
/** The study lasts 42 days (docs/product.md §9); on day start + 42 it is over. */
export const STUDY_DAYS = 42;

/**
 * The Community Stats card, from data (definitions in docs/community.md):
 * - activeMembers: distinct members who posted (any thread) in the last 30 days;
 * - discussionsToday: public threads with a message since midnight in `timezone`;
 * - sleepStudiesShared: study participants whose start date + 42 days is today or earlier
 *   (today in `timezone`).
 * Deleted users' messages and participations are gone, so they never count. The study
 * team's messages (the welcome message) count in neither: these tiles are about members.
 */
export async function communityStats(sql: Sql, input: { now: Date; timezone: Timezone }): Promise<CommunityStats> {
  const { now, timezone } = input;
  // Growth: each tile is one range of an index over rows the projections keep (a member's
  // last post, a thread's last member message, a participant's start date), never the
  // messages: its cost follows the members, threads or participants it counts.
  const [row] = await sql<{ active_members: number; discussions_today: number; sleep_studies_shared: number }[]>`
    select
      (select count(*)::int from member_activity
        where last_posted_at > ${now}::timestamptz - make_interval(days => ${ACTIVE_MEMBER_DAYS})) as active_members,
      (select count(*)::int from message_threads
        where not is_direct
          and last_member_message_at >= (date_trunc('day', ${now}::timestamptz at time zone ${timezone}) at time zone ${timezone})) as discussions_today,
      (select count(*)::int from study_participants
        where study_start_date <= (${now}::timestamptz at time zone ${timezone})::date - ${STUDY_DAYS}::int) as sleep_studies_shared`;
  return {
    activeMembers: row?.active_members ?? 0,
    discussionsToday: row?.discussions_today ?? 0,
    sleepStudiesShared: row?.sleep_studies_shared ?? 0,
    timezone,
  };
}
