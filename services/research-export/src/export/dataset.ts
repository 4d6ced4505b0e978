import { daysBetween, isDemoEmail, lastEndedNight, phaseRanges, type StudyPhase } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import { NIGHT_COPY_COLUMNS } from './copy-nights.ts';

/**
 * What a run reads: the enrolled participants (with what research may know of them) and
 * their nights, streamed in research-id order. `userId` narrows it to one participant (her
 * own export).
 */

export interface ParticipantRow {
  userId: string;
  researchId: string;
  studyStartDate: string;
  dateOfBirth: string | null;
  hormonalStage: string | null;
  timezone: string;
  journalEntries: number;
  /** A demo account (`npm run demo`, by her e-mail's domain); the e-mail itself goes nowhere. */
  demo: boolean;
}

export async function readParticipants(sql: Sql, userId?: string): Promise<ParticipantRow[]> {
  const rows = await sql<
    {
      user_id: string;
      research_id: string;
      study_start_date: string;
      date_of_birth: string | null;
      hormonal_stage: string | null;
      timezone: string;
      journal_entries: number;
      email: string;
    }[]
  >`
    select p.user_id, p.research_id, p.study_start_date::text as study_start_date, d.date_of_birth::text as date_of_birth,
      d.hormonal_stage, d.timezone, d.email,
      (select count(*)::int from research_journal_entries j
        where j.user_id = p.user_id and j.date between p.study_start_date and p.study_start_date + 41) as journal_entries
    from research_participants p
    join user_directory d on d.user_id = p.user_id
    ${userId ? sql`where p.user_id = ${userId}` : sql``}
    order by p.research_id`;
  return rows.map((r) => ({
    userId: r.user_id,
    researchId: r.research_id,
    studyStartDate: r.study_start_date,
    dateOfBirth: r.date_of_birth,
    hormonalStage: r.hormonal_stage,
    timezone: r.timezone,
    journalEntries: r.journal_entries,
    demo: isDemoEmail(r.email),
  }));
}

/**
 * The COPY of every night of enrolled participants, in research-id and date order (the
 * bytes {@link CopyNights} reads). COPY is PostgreSQL's fastest way out (a cursor of rows
 * took 4× as long); it takes no parameters, so the one participant's id is checked to be a
 * UUID and inlined.
 */
export async function copyNights(sql: Sql, userId?: string): Promise<AsyncIterable<Buffer>> {
  if (userId !== undefined && !UUID.test(userId)) throw new Error(`not a user id: ${userId}`);
  const where = userId === undefined ? '' : `where n.user_id = '${userId}'`;
  const copy = await sql
    .unsafe(
      `copy (select ${NIGHT_COPY_COLUMNS.join(', ')} from research_nights n join research_participants p on p.user_id = n.user_id ${where} order by p.research_id, n.date) to stdout`,
    )
    .readable();
  return copy as AsyncIterable<Buffer>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Her age in whole years on a date (both YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, date: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** A 5-year band, e.g. `45-49`; empty when she gave no date of birth. */
export function ageBand(dateOfBirth: string | null, onDate: string): string {
  if (!dateOfBirth) return '';
  const age = ageOn(dateOfBirth, onDate);
  const low = Math.floor(age / 5) * 5;
  return `${low}-${low + 4}`;
}

/**
 * How many nights of each phase were due by `lastNight`, the last night that had ended for
 * her at the run (in her time zone: {@link LastEndedNightIn}). A night ends at 04:00 her
 * time: at the nightly run (02:00 UTC) last night has not ended yet in London.
 */
export function nightsDue(studyStartDate: string, lastNight: string): Record<Exclude<StudyPhase, 'completed'>, number> {
  const lastDueDay = daysBetween(studyStartDate, lastNight) + 1;
  const due = { polyester: 0, washout: 0, linen: 0 };
  for (const { phase, first, last } of phaseRanges()) due[phase.id] = Math.max(0, Math.min(last, lastDueDay) - first + 1);
  return due;
}

/** The last night that had ended at `now` in each time zone, worked out once per zone (a cohort has a few; Intl's formatting is costly). */
export class LastEndedNightIn {
  private readonly nights = new Map<string, string>();

  constructor(private readonly now: Date) {}

  get(timezone: string): string {
    let night = this.nights.get(timezone);
    if (night === undefined) {
      night = lastEndedNight(timezone, this.now);
      this.nights.set(timezone, night);
    }
    return night;
  }
}
