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
  // Growth (docs/community.md, "Growth"): no tile counts the rows it is about. Active
  // Members sums the members of each whole day (UTC) after the one 30 days back
  // (member_activity_days: about 30 rows) and counts those of that one day who posted after
  // the cut (an index range of one day's members); Sleep Studies Shared sums participants
  // per start date (study_start_days: a row per start date, never per participant);
  // Discussions Today is an index range of the threads with a member message today.
  const [row] = await sql<{ active_members: number; discussions_today: number; sleep_studies_shared: number }[]>`
    with cut as (
      select ${now}::timestamptz - make_interval(days => ${ACTIVE_MEMBER_DAYS}) as at,
        ((${now}::timestamptz - make_interval(days => ${ACTIVE_MEMBER_DAYS})) at time zone 'UTC')::date as day
    )
    select
      (select coalesce(sum(members), 0)::int from member_activity_days where day > (select day from cut))
      + (select count(*)::int from member_activity
          where last_posted_at > (select at from cut)
            and last_posted_at < (((select day from cut) + 1)::timestamp at time zone 'UTC')) as active_members,
      (select count(*)::int from message_threads
        where not is_direct
          and last_member_message_at >= (date_trunc('day', ${now}::timestamptz at time zone ${timezone}) at time zone ${timezone})) as discussions_today,
      (select coalesce(sum(participants), 0)::int from study_start_days
        where start_date <= (${now}::timestamptz at time zone ${timezone})::date - ${STUDY_DAYS}::int) as sleep_studies_shared`;
  return {
    activeMembers: row?.active_members ?? 0,
    discussionsToday: row?.discussions_today ?? 0,
    sleepStudiesShared: row?.sleep_studies_shared ?? 0,
    timezone,
  };
}
