/**
 * npm run bench (personal export): her sleep export for 14 days and for 366 days, as
 * Excel and as PDF: time to the last byte, file size, and the process's peak RSS above
 * its baseline (modules loaded, fonts registered, one small export made). Each case runs
 * in a process of its own, so one case's garbage cannot hide in another's peak. Goal:
 * memory flat, a year's export costing about what two weeks' does (the nights are
 * streamed; only five numbers a night are kept for the charts).
 * It uses its own database and removes it afterwards.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { addDays, type SleepExportFormat } from '@sleepweave/contracts';
import { migrateEventStore } from '@sleepweave/event-store';
import { connectDatabase, createLogger, dropDatabase, ensureDatabase, migrateUserDirectory, runMigrations } from '@sleepweave/service-kit';
import { startSleepExport } from '../services/study/src/sleep-exports/export.ts';
import { findExportSubject } from '../services/study/src/sleep-exports/queries.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const START = '2025-01-01';
const DAYS = 366;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

interface CaseResult {
  format: SleepExportFormat;
  days: number;
  ms: number;
  bytes: number;
  baselineRss: number;
  peakRss: number;
}

/** One export in this process: its time, size and the peak RSS while it ran. */
async function runCase(database: string, userId: string, format: SleepExportFormat, days: number): Promise<CaseResult> {
  const sql = connectDatabase(DATABASE_URL, database, { max: 2 });
  const logger = createLogger('bench', 'silent');
  try {
    const subject = (await findExportSubject(sql, userId))!;
    const exportOf = async (start: string, end: string) => {
      let bytes = 0;
      const file = await startSleepExport(sql, subject, { startDate: start, endDate: end, format }, { now: new Date(), logger });
      await pipeline(
        file.stream,
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            done();
          },
        }),
      );
      await file.done;
      return bytes;
    };
    // Warm: modules, fonts and the canvas loaded by a one-night export.
    await exportOf(START, START);
    globalThis.gc?.();
    const baselineRss = process.memoryUsage().rss;
    let peakRss = baselineRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
    const started = performance.now();
    const bytes = await exportOf(START, addDays(START, days - 1));
    const ms = performance.now() - started;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    return { format, days, ms, bytes, baselineRss, peakRss };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

if (process.argv[2] === '--case') {
  const [, , , database, userId, format, days] = process.argv;
  const result = await runCase(database!, userId!, format as SleepExportFormat, Number(days));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const database = `sw_bench_export_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(DATABASE_URL, database);
  const sql = connectDatabase(DATABASE_URL, database, { max: 2 });
  try {
    await migrateEventStore(sql);
    await migrateUserDirectory(sql);
    await runMigrations(sql, fileURLToPath(new URL('../services/study/migrations', import.meta.url)));
    // One participant who logged a whole year, every field, with a comment on every night.
    const userId = randomUUID();
    await sql`
      insert into user_directory (user_id, email, first_name, last_name, date_of_birth, timezone, hormonal_stage, role, registered_at)
      values (${userId}, 'bench@example.com', 'Zoë', 'Łukasiewicz', '1968-05-04', 'Europe/London', 'Menopause', 'participant', now())`;
    await sql`
      insert into consents (id, user_id, consent_text, consent_version, accepted_at, timezone, study_start_date)
      values (${randomUUID()}, ${userId}, 'bench', '1.0', now(), 'Europe/London', ${START})`;
    await sql`
      insert into sleep_logs (id, user_id, date, study_day, phase, recommended_material, sleepwear_material, sleep_score,
        total_sleep_minutes, sleep_efficiency, time_in_bed_minutes, resting_hr, restfulness, rem_minutes, deep_minutes, latency_minutes,
        timing_score, avg_spo2, breathing_regularity, lowest_hr, avg_hrv, sleep_quality_1_10, restfulness_self, morning_mood, dream_recall,
        fabric_comfort, emotional_calm, heat_wave, heat_wakeups, comments, created_at, updated_at)
      select gen_random_uuid(), ${userId}, ${START}::date + (d - 1), d,
        case when d <= 14 then 'polyester' when d <= 28 then 'washout' when d <= 42 then 'linen' else 'completed' end,
        case when d <= 14 then '100% Polyester' when d <= 28 or d > 42 then '100% Cotton' else '100% Linen' end,
        case when d <= 14 then '100% Polyester' when d <= 28 or d > 42 then '100% Cotton' else '100% Linen' end,
        60 + (random() * 35)::int, 380 + (random() * 80)::int, 80 + random() * 15, 470 + (random() * 40)::int, 55 + (random() * 15)::int,
        60 + (random() * 30)::int, 70 + (random() * 40)::int, 50 + (random() * 40)::int, 5 + (random() * 20)::int, 60 + (random() * 30)::int,
        94 + random() * 4, 'Good', 50 + (random() * 10)::int, 30 + random() * 40, 1 + (random() * 9)::int, 1 + (random() * 9)::int, 'Refreshed',
        random() < 0.5, 'Comfortable', 1 + (random() * 9)::int, random() < 0.3, (random() * 3)::int,
        repeat('Woke at 3 am, warm — settled after a while. ', 10), now(), now()
      from generate_series(1, ${DAYS}) as d`;

    console.log(`personal export: one participant, ${DAYS} nights logged, a 440-character comment on each`);
    const run = promisify(execFile);
    const self = fileURLToPath(import.meta.url);
    for (const format of ['xlsx', 'pdf'] as const) {
      for (const days of [14, DAYS]) {
        const { stdout } = await run(
          process.execPath,
          ['--expose-gc', '--import', 'tsx', self, '--case', database, userId, format, String(days)],
          {
            maxBuffer: 1024 * 1024,
          },
        );
        const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as CaseResult;
        console.log(
          `  ${format.padEnd(4)} ${String(days).padStart(3)} days: ${(r.ms / 1000).toFixed(2)} s, file ${mb(r.bytes)}, ` +
            `peak RSS ${mb(r.peakRss)} (baseline ${mb(r.baselineRss)}, +${mb(r.peakRss - r.baselineRss)})`,
        );
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
    await dropDatabase(DATABASE_URL, database);
  }
}
