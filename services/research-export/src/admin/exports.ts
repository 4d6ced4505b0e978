import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { wallClockIn, type AdminExportKind } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import type { Logger } from 'pino';
import { NIGHT_FIELDS } from '../export/columns.ts';
import { csvStringifier, type CsvColumn } from './csv.ts';
import { readAllUsers } from './queries.ts';

const col = (key: string, header = key): CsvColumn => ({ key, header });

/**
 * users-YYYY-MM-DD.csv: the admin's list of everyone, with personal data (names, e-mail,
 * date of birth): for running the study, never for analysis. It has no research id, so it
 * cannot be joined to the research files.
 */
export const USERS_COLUMNS: readonly CsvColumn[] = [
  'user_id',
  'first_name',
  'last_name',
  'email',
  'role',
  'date_of_birth',
  'age',
  'hormonal_stage',
  'timezone',
  'joined_at',
  'consent',
  'consented_at',
  'study_start_date',
  'study_day',
  'phase',
  'sleep_logs',
  'journal_entries',
  'compliance_percent',
  'nights_elapsed',
  'nights_logged',
  'study_compliance_percent',
  'last_log_date',
  'days_since_last_log',
].map((key) => col(key));

/**
 * sleep-YYYY-MM-DD.csv: every logged night under her research id, as the research zip's
 * nights.csv has them (no name, e-mail, user id or comment).
 */
export const SLEEP_COLUMNS: readonly CsvColumn[] = [
  col('research_id'),
  col('date'),
  col('study_day'),
  col('phase'),
  col('recommended_material'),
  ...NIGHT_FIELDS.map((field) => col(field.column)),
  col('recorded_at'),
  col('revised_at'),
  col('revisions'),
];

async function* userRows(sql: Sql, now: Date): AsyncGenerator<Record<string, unknown>> {
  for await (const batch of readAllUsers(sql, now)) {
    for (const user of batch) {
      yield {
        user_id: user.id,
        first_name: user.firstName,
        last_name: user.lastName,
        email: user.email,
        role: user.role,
        date_of_birth: user.dateOfBirth,
        age: user.age,
        hormonal_stage: user.hormonalStage,
        timezone: user.timezone,
        joined_at: user.createdAt,
        consent: user.consentedAt !== null,
        consented_at: user.consentedAt,
        study_start_date: user.study?.studyStartDate ?? null,
        study_day: user.study?.day ?? null,
        phase: user.study?.phase ?? null,
        sleep_logs: user.sleepLogCount,
        journal_entries: user.journalEntryCount,
        compliance_percent: user.compliancePercent,
        nights_elapsed: user.study?.nightsElapsed ?? null,
        nights_logged: user.study?.nightsLogged ?? null,
        study_compliance_percent: user.study?.compliancePercent ?? null,
        last_log_date: user.lastLogDate,
        days_since_last_log: user.daysSinceLastLog,
      };
    }
  }
}

async function* sleepRows(sql: Sql, batchSize = 1_000): AsyncGenerator<Record<string, unknown>> {
  const cursor = sql<Record<string, unknown>[]>`
    select n.*, n.date::text as date, p.research_id
    from research_nights n
    join research_participants p on p.user_id = n.user_id
    order by p.research_id, n.date`.cursor(batchSize);
  // only the columns above are written (not her user id or the log's id)
  for await (const batch of cursor) yield* batch;
}

/** `<kind>-YYYY-MM-DD.csv`, dated on the admin's own calendar (her time zone; UTC when unknown). */
export const exportFileName = (kind: AdminExportKind, now: Date, timeZone = 'UTC') => `${kind}-${wallClockIn(timeZone, now).date}.csv`;

/** The admin's time zone, from her profile (UTC when the service does not know her). */
export async function timeZoneOf(sql: Sql, userId: string): Promise<string> {
  const [row] = await sql<{ timezone: string }[]>`select timezone from user_directory where user_id = ${userId}`;
  return row?.timezone ?? 'UTC';
}

/**
 * The export as a stream of CSV text, read from the database a batch at a time as the
 * client takes it (back-pressure through the pipeline; a client that goes away stops the
 * read). A failure half way ends the stream with an error (the client sees a cut-off file
 * and the log says why).
 */
export function exportCsv(sql: Sql, kind: AdminExportKind, now: Date, logger: Logger): Readable {
  const stringifier = csvStringifier(kind === 'users' ? USERS_COLUMNS : SLEEP_COLUMNS);
  const rows = Readable.from(kind === 'users' ? userRows(sql, now) : sleepRows(sql));
  pipeline(rows, stringifier).catch((err: unknown) => {
    if ((err as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.error({ err, kind }, 'admin export failed');
  });
  return stringifier;
}
