import { studyLength } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';

/**
 * Her row of `admin_night_activity`, counted again from her own nights (a few dozen at
 * most, by the (user_id, date) index) in the transaction that changed them: exact whatever
 * order recordings, revisions and redeliveries arrive in.
 */
export async function refreshNightActivity(tx: Tx, userId: string): Promise<void> {
  await tx`
    with nights as (
      select date, study_day between 1 and ${studyLength()} as in_study, recorded_at from research_nights where user_id = ${userId}
    )
    insert into admin_night_activity
      (user_id, nights, study_nights, last_night_date, last_night_in_study, previous_night_date, previous_night_in_study, last_recorded_at)
    select ${userId}, count(*)::int, (count(*) filter (where in_study))::int,
      max(date), (array_agg(in_study order by date desc))[1],
      (array_agg(date order by date desc))[2], (array_agg(in_study order by date desc))[2],
      max(recorded_at)
    from nights
    on conflict (user_id) do update set
      nights = excluded.nights, study_nights = excluded.study_nights,
      last_night_date = excluded.last_night_date, last_night_in_study = excluded.last_night_in_study,
      previous_night_date = excluded.previous_night_date, previous_night_in_study = excluded.previous_night_in_study,
      last_recorded_at = excluded.last_recorded_at`;
}

/**
 * Her row of `admin_journal_activity` after an entry written at `writtenAt`, one more
 * entry when `isNew` (its row in research_journal_entries was just made): counting hers
 * again on every entry cost as much as she had written.
 */
export async function refreshJournalActivity(tx: Tx, userId: string, writtenAt: string, isNew: boolean): Promise<void> {
  await tx`
    insert into admin_journal_activity (user_id, entries, last_written_at)
    values (${userId}, ${isNew ? 1 : 0}, ${writtenAt}::timestamptz)
    on conflict (user_id) do update set
      entries = admin_journal_activity.entries + excluded.entries,
      last_written_at = greatest(admin_journal_activity.last_written_at, excluded.last_written_at)`;
}

/** The tables above, for the consumers that keep them (a rebuild empties and replays them). */
export const NIGHT_ACTIVITY_TABLE = 'admin_night_activity';
export const JOURNAL_ACTIVITY_TABLE = 'admin_journal_activity';
