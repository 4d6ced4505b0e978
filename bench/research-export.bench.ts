/**
 * npm run bench (research export): a full research run over the demo cohort of 1,000
 * participants (infra/demo/cohort.ts, as `npm run demo` makes it), its time and the process's peak RSS, printed beside its floor: a
 * `COPY (select ... from research_nights) TO STDOUT` of the same rows on the same
 * database, in the same run, alternating (goals: run ≤ 5 s, peak RSS ≤ 300 MB, ≤ 3× the floor).
 * It uses its own database and removes it afterwards. BENCH_PROFILE=<file.cpuprofile> writes
 * a CPU profile of the rounds (not of the setup), for Chrome's DevTools.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { migrateEventStore } from '@sleepweave/event-store';
import { connectDatabase, createLogger, dropDatabase, ensureDatabase, migrateUserDirectory, runMigrations } from '@sleepweave/service-kit';
import { studyStatus } from '@sleepweave/contracts';
import { generateParticipant } from '../infra/demo/cohort.ts';
import { readResearchExportConfig } from '../services/research-export/src/config.ts';
import { createResearchExportContext } from '../services/research-export/src/context.ts';
import { NIGHT_FIELDS } from '../services/research-export/src/export/columns.ts';
import { buildResearchZip } from '../services/research-export/src/export/research-zip.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const database = `sw_bench_research_${randomBytes(4).toString('hex')}`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

await ensureDatabase(DATABASE_URL, database);
const sql = connectDatabase(DATABASE_URL, database, { max: 4 });
try {
  await migrateEventStore(sql);
  await migrateUserDirectory(sql);
  await runMigrations(sql, new URL('../services/research-export/migrations', import.meta.url).pathname);

  // The demo cohort (infra/demo: what `npm run demo -- --participants 1000` makes, same
  // seed, same people): her account and consent as research-export's consumers keep them,
  // and every night as last revised, written straight into the read model here.
  // One participant at a time (the same person as in a cohort of any size), written in
  // batches, so the generator's data is not in this process's memory during the run.
  const now = new Date('2026-11-22T02:00:00Z');
  let enrolled = 0;
  for (let first = 1; first <= PARTICIPANTS; first += 50) {
    const batch = Array.from({ length: Math.min(50, PARTICIPANTS - first + 1) }, (_, i) =>
      generateParticipant('bench', first + i, now),
    ).filter((p) => p.studyStartDate !== null);
    enrolled += batch.length;
    const ids = new Map(batch.map((p) => [p.index, randomUUID()]));
    await sql`insert into user_directory ${sql(
      batch.map((p) => ({
        user_id: ids.get(p.index)!,
        email: p.email,
        first_name: p.firstName,
        last_name: p.lastName,
        date_of_birth: p.dateOfBirth,
        timezone: p.timezone,
        hormonal_stage: p.hormonalStage,
        role: 'participant',
        registered_at: p.registeredAt,
      })),
    )}`;
    await sql`insert into research_participants ${sql(
      batch.map((p) => ({
        user_id: ids.get(p.index)!,
        research_id: `SW-${randomBytes(4).toString('hex').toUpperCase()}`,
        study_start_date: p.studyStartDate,
        consent_version: '1.0',
        consented_at: p.consentAt,
      })),
    )}`;
    const rows = batch.flatMap((p) =>
      p.nights.map((night) => {
        const values = night.revision?.values ?? night.values;
        const row: Record<string, unknown> = {
          log_id: randomUUID(),
          user_id: ids.get(p.index)!,
          date: night.date,
          study_day: night.studyDay,
          phase: night.phase,
          recommended_material: studyStatus(night.studyDay).recommendedMaterial,
          recorded_at: night.recordedAt,
          revised_at: night.revision?.at ?? null,
          revisions: night.revision ? 1 : 0,
        };
        for (const field of NIGHT_FIELDS) row[field.column] = values[field.key as keyof typeof values] ?? null;
        return row;
      }),
    );
    for (let i = 0; i < rows.length; i += 1_000) await sql`insert into research_nights ${sql(rows.slice(i, i + 1_000))}`;
  }
  await sql`analyze`;
  const [{ n }] = (await sql`select count(*)::int as n from research_nights`) as unknown as [{ n: number }];

  // The floor: the same rows out of PostgreSQL, as fast as it sends them.
  const floor = async (): Promise<{ ms: number; bytes: number }> => {
    let bytes = 0;
    const started = performance.now();
    const copy =
      await sql`copy (select n.*, p.research_id from research_nights n join research_participants p using (user_id) order by p.research_id, n.date) to stdout with csv header`.readable();
    await pipeline(
      copy,
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          done();
        },
      }),
    );
    return { ms: performance.now() - started, bytes };
  };

  // The run, as the worker makes it; floor and run alternate, and the figures are medians.
  const config = readResearchExportConfig({ ...process.env, DATABASE_URL, DB_PREFIX: '', RESEARCH_EXPORT_TIME: 'off' });
  const ctx = createResearchExportContext({ config, sql, logger: createLogger('bench', 'silent') });
  const baselineRss = process.memoryUsage().rss;
  let peakRss = baselineRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
  const rounds: { runMs: number; floorMs: number }[] = [];
  let zipBytes = 0;
  let copied = 0;
  const profiler = process.env.BENCH_PROFILE ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  for (let round = 0; round < ROUNDS; round++) {
    const f = await floor();
    copied = f.bytes;
    const started = performance.now();
    const output = await buildResearchZip(ctx, new Date('2026-11-22T02:00:00Z'));
    rounds.push({ runMs: performance.now() - started, floorMs: f.ms });
    zipBytes = output.zip.length;
  }
  clearInterval(sampler);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    await writeFile(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const runMs = median(rounds.map((r) => r.runMs));
  const floorMs = median(rounds.map((r) => r.floorMs));

  console.log(
    `research run over the demo cohort of ${PARTICIPANTS} (${enrolled} enrolled, ${n} nights; median of ${ROUNDS} alternating rounds)`,
  );
  console.log(
    `  run: ${(runMs / 1000).toFixed(2)} s (goal ≤ 5 s); zip ${mb(zipBytes)}; peak RSS ${mb(peakRss)} (goal ≤ 300 MB), of which the run added ${mb(peakRss - baselineRss)} to the ${mb(baselineRss)} this process held before it (tsx, the libraries, the generated cohort)`,
  );
  console.log(`  floor (COPY of the nights to stdout): ${(floorMs / 1000).toFixed(2)} s, ${mb(copied)}`);
  console.log(`  ratio run / floor: ${median(rounds.map((r) => r.runMs / r.floorMs)).toFixed(1)}× (goal ≤ 3×)`);
} finally {
  await sql.end({ timeout: 5 });
  await dropDatabase(DATABASE_URL, database);
}
