import { STUDY_TEAM_ID, type CommunityStats, type Timezone } from '@sleepweave/contracts';
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
  const [row] = await sql<{ active_members: number; discussions_today: number; sleep_studies_shared: number }[]>`
    select
      (select count(distinct sender_id)::int from messages
        where sender_id <> ${STUDY_TEAM_ID}
          and created_at > ${now}::timestamptz - make_interval(days => ${ACTIVE_MEMBER_DAYS})
          and created_at <= ${now}::timestamptz) as active_members,
      (select count(distinct m.thread_id)::int from messages m join message_threads t on t.id = m.thread_id
        where not t.is_direct and m.sender_id <> ${STUDY_TEAM_ID}
          and m.created_at >= (date_trunc('day', ${now}::timestamptz at time zone ${timezone}) at time zone ${timezone})
          and m.created_at <= ${now}::timestamptz) as discussions_today,
      (select count(*)::int from study_participants
        where study_start_date + ${STUDY_DAYS}::int <= (${now}::timestamptz at time zone ${timezone})::date) as sleep_studies_shared`;
  return {
    activeMembers: row?.active_members ?? 0,
    discussionsToday: row?.discussions_today ?? 0,
    sleepStudiesShared: row?.sleep_studies_shared ?? 0,
    timezone,
  };
}
