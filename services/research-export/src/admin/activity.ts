import { studyLength } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';

/** Her figures in `admin_night_activity`, counted from her nights as this statement sees them. */
function nightFigures(tx: Tx, userId: string) {
  return tx`
    with nights as (
      select date, study_day between 1 and ${studyLength()} as in_study, recorded_at from research_nights where user_id = ${userId}
    )
    select ${userId}::uuid as user_id, count(*)::int as nights, (count(*) filter (where in_study))::int as study_nights,
      max(date) as last_night_date, (array_agg(in_study order by date desc))[1] as last_night_in_study,
      (array_agg(date order by date desc))[2] as previous_night_date, (array_agg(in_study order by date desc))[2] as previous_night_in_study,
      (array_agg(date order by date desc))[3] as third_night_date, (array_agg(in_study order by date desc))[3] as third_night_in_study,
      max(recorded_at) as last_recorded_at
    from nights`;
}

/**
 * Her row of `admin_night_activity`, counted again from her own nights (a few dozen at
 * most, by the (user_id, date) index) in the transaction that changed them: exact whatever
 * order recordings, revisions and redeliveries arrive in. Her row is held before she is
 * counted, so the count (a later statement) sees every night of the transactions that held
 * it before: of two of her nights handled at once (two instances of the consumer), the
 * second counted without the first and wrote one night less than she had. Her first row
 * cannot be held before it exists: when it was made by another transaction meanwhile, the
 * upsert waited for it with a count made before, and she is counted again once it is held
 * (and written only if that count differs).
 */
export async function refreshNightActivity(tx: Tx, userId: string): Promise<void> {
  const [held] = await tx`select 1 from admin_night_activity where user_id = ${userId} for update`;
  await tx`
    insert into admin_night_activity
      (user_id, nights, study_nights, last_night_date, last_night_in_study, previous_night_date, previous_night_in_study,
       third_night_date, third_night_in_study, last_recorded_at)
    ${nightFigures(tx, userId)}
    on conflict (user_id) do update set
      nights = excluded.nights, study_nights = excluded.study_nights,
      last_night_date = excluded.last_night_date, last_night_in_study = excluded.last_night_in_study,
      previous_night_date = excluded.previous_night_date, previous_night_in_study = excluded.previous_night_in_study,
      third_night_date = excluded.third_night_date, third_night_in_study = excluded.third_night_in_study,
      last_recorded_at = excluded.last_recorded_at`;
  if (held) return;
  await tx`
    update admin_night_activity a set
      nights = f.nights, study_nights = f.study_nights,
      last_night_date = f.last_night_date, last_night_in_study = f.last_night_in_study,
      previous_night_date = f.previous_night_date, previous_night_in_study = f.previous_night_in_study,
      third_night_date = f.third_night_date, third_night_in_study = f.third_night_in_study,
      last_recorded_at = f.last_recorded_at
    from (${nightFigures(tx, userId)}) f
    where a.user_id = f.user_id
      and (a.nights, a.study_nights, a.last_night_date, a.last_night_in_study, a.previous_night_date, a.previous_night_in_study,
           a.third_night_date, a.third_night_in_study, a.last_recorded_at)
        is distinct from (f.nights, f.study_nights, f.last_night_date, f.last_night_in_study, f.previous_night_date, f.previous_night_in_study,
           f.third_night_date, f.third_night_in_study, f.last_recorded_at)`;
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
