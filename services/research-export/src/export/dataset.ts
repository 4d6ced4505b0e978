import { StringDecoder } from 'node:string_decoder';
import { addDays, calendarDateIn, daysBetween, isDemoEmail, phaseRanges, type StudyPhase } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import { csvCell } from './csv.ts';
import { NIGHT_FIELDS, type NightRow, type NightValue, type NightValues } from './qa.ts';

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
 * The columns of a night as the run reads them, in the order COPY sends them: first those
 * nights.csv writes as they come (research id to the last field), then the rest.
 */
const NIGHT_COPY_COLUMNS = [
  'p.research_id',
  'n.date',
  'n.study_day',
  'n.phase',
  'n.recommended_material',
  ...NIGHT_FIELDS.map((field) => `n.${field.column}`),
  'n.revisions',
  // whole milliseconds since 1970 (UTC), as the Date the service wrote
  'floor(extract(epoch from n.recorded_at) * 1000)::bigint',
].join(', ');
const FIRST_FIELD = 5;
const CELLS = FIRST_FIELD + NIGHT_FIELDS.length;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A field of COPY's text format: `\N` is null; backslash escapes the rest. */
function copyText(field: string): string | null {
  if (field === '\\N') return null;
  if (!field.includes('\\')) return field;
  return field.replace(/\\(.)/g, (_, c: string) => ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' })[c] ?? c);
}

/** How each research field's COPY text becomes its value (numbers and booleans are never escaped). */
const NUMBER = 0;
const BOOLEAN = 1;
const CHOICE = 2;
const FIELD_KINDS: readonly number[] = NIGHT_FIELDS.map((field) => (field.kind === 'boolean' ? BOOLEAN : field.kind === 'choice' ? CHOICE : NUMBER));

/**
 * A night as read, with its cells of nights.csv from the research id to the last field.
 * A number's cell is PostgreSQL's own text of the stored double (extra_float_digits 3,
 * `connectDatabase`: the shortest text that reads back as the same value), so no number is
 * turned into text again; one that is not finite (never sent by study) is an empty cell,
 * as csvCell writes it.
 */
export interface NightRead extends NightRow {
  cells: string[];
}

function nightFromLine(line: string): NightRead {
  // the cells are made in place, in the array of the line's fields
  const cells = line.split('\t');
  const values: NightValues = [];
  for (let i = 0; i < FIELD_KINDS.length; i++) {
    const text = cells[FIRST_FIELD + i]!;
    let value: NightValue;
    if (text === '\\N') {
      value = null;
      cells[FIRST_FIELD + i] = '';
    } else if (FIELD_KINDS[i] === NUMBER) {
      value = Number(text);
      if (!Number.isFinite(value)) cells[FIRST_FIELD + i] = '';
    } else if (FIELD_KINDS[i] === BOOLEAN) {
      value = text === 't';
      cells[FIRST_FIELD + i] = value ? 'yes' : 'no';
    } else {
      value = copyText(text);
      cells[FIRST_FIELD + i] = csvCell(value);
    }
    values.push(value);
  }
  const researchId = copyText(cells[0]!)!;
  const recommendedMaterial = copyText(cells[4]!)!;
  cells[0] = csvCell(researchId);
  cells[4] = csvCell(recommendedMaterial);
  const night: NightRead = {
    researchId,
    date: cells[1]!,
    studyDay: Number(cells[2]),
    phase: cells[3] as StudyPhase,
    recommendedMaterial,
    recordedAt: new Date(Number(cells[CELLS + 1])),
    revisions: Number(cells[CELLS]),
    values,
    cells,
  };
  cells.length = CELLS;
  return night;
}

/**
 * Every night of enrolled participants, in research-id and date order, a batch at a time.
 * Read with COPY, PostgreSQL's fastest way out (a cursor of rows took 4× as long); COPY
 * takes no parameters, so the one participant's id is checked to be a UUID and inlined.
 */
export async function* readNights(sql: Sql, userId?: string, batchSize = 1_000): AsyncGenerator<NightRead[]> {
  if (userId !== undefined && !UUID.test(userId)) throw new Error(`not a user id: ${userId}`);
  const where = userId === undefined ? '' : `where n.user_id = '${userId}'`;
  const copy = await sql
    .unsafe(
      `copy (select ${NIGHT_COPY_COLUMNS} from research_nights n join research_participants p on p.user_id = n.user_id ${where} order by p.research_id, n.date) to stdout`,
    )
    .readable();
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let batch: NightRead[] = [];
  for await (const chunk of copy as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      batch.push(nightFromLine(line));
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (rest !== '') batch.push(nightFromLine(rest));
  if (batch.length > 0) yield batch;
}

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
 * How many nights of each phase have passed for her at `now`: a night is due once its
 * morning has come in her time zone (the night of date D is logged on D + 1).
 */
export function nightsDue(studyStartDate: string, timezone: string, now: Date): Record<Exclude<StudyPhase, 'completed'>, number> {
  const lastDueDay = daysBetween(studyStartDate, addDays(calendarDateIn(timezone, now), -1)) + 1;
  const due = { polyester: 0, washout: 0, linen: 0 };
  for (const { phase, first, last } of phaseRanges()) due[phase.id] = Math.max(0, Math.min(last, lastDueDay) - first + 1);
  return due;
}
