import type { Tx } from '@sleepweave/event-store';

/**
 * The per-day rollups Community Stats reads (migrations/003_stats_rollups.sql; docs/community.md,
 * "Growth"), kept in the same transaction as the rows they count. A day's row goes when its
 * count reaches 0, so a rebuild from the events gives the same rows: decided with the row
 * held (of two decrements at once of a day's last two, the second found 2 and then
 * subtracted from the first's 1: 0, which the table's check refuses, and its transaction
 * failed).
 */

/** A member's last post moved to `day` (UTC; YYYY-MM-DD) from `from` (none: her first post). */
export async function moveActiveMember(tx: Tx, from: string | null, day: string | null): Promise<void> {
  if (from === day) return;
  if (from !== null) {
    const [row] = await tx<{ members: number }[]>`select members from member_activity_days where day = ${from} for update`;
    if (row?.members === 1) await tx`delete from member_activity_days where day = ${from}`;
    else if (row) await tx`update member_activity_days set members = members - 1 where day = ${from}`;
  }
  if (day !== null) {
    await tx`
      insert into member_activity_days (day, members) values (${day}, 1)
      on conflict (day) do update set members = member_activity_days.members + 1`;
  }
}

/** A participant who started on `startDate` (YYYY-MM-DD) was added (+1) or removed (-1). */
export async function countStudyStart(tx: Tx, startDate: string, delta: 1 | -1): Promise<void> {
  if (delta === 1) {
    await tx`
      insert into study_start_days (start_date, participants) values (${startDate}, 1)
      on conflict (start_date) do update set participants = study_start_days.participants + 1`;
    return;
  }
  const [row] = await tx<{ participants: number }[]>`select participants from study_start_days where start_date = ${startDate} for update`;
  if (row?.participants === 1) await tx`delete from study_start_days where start_date = ${startDate}`;
  else if (row) await tx`update study_start_days set participants = participants - 1 where start_date = ${startDate}`;
}
