/**
 * npm run bench (research export): a full research run over 1,000 participants who have all
 * been through the 42 nights (infra/demo/cohort.ts's people, as `npm run demo` makes them,
 * each past the study's end, her missed nights missed: 38,896 nights), its time and the peak
 * RSS of the process that made it (bench/research-export-rounds.ts, a child), printed
 * beside its floor: a `COPY (select ... from research_nights) TO STDOUT` of the same rows
 * on the same database, in the same run, alternating (goals: run ≤ 5 s, peak RSS ≤ 300 MB,
 * ≤ 3× the floor). It uses its own database and removes it afterwards. The rounds run
 * compiled and with the Node options of the service (infra/build-apps.mjs, APP_NODE_ARGS).
 * BENCH_PROFILE=<file.cpuprofile> writes a CPU profile of the rounds, for Chrome's DevTools.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compile } from '../infra/build-apps.mjs';
import { APP_NODE_ARGS } from '../infra/services.mjs';
import { migrateEventStore } from '@sleepweave/event-store';
import { connectDatabase, dropDatabase, ensureDatabase, migrateUserDirectory, runMigrations } from '@sleepweave/service-kit';
import { studyStatus } from '@sleepweave/contracts';
import { generateParticipant } from '../infra/demo/cohort.ts';
import { NIGHT_FIELDS } from '../services/research-export/src/export/columns.ts';
import type { RoundsResult } from './research-export-rounds.ts';

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

  // The demo cohort's people (infra/demo: as `npm run demo -- --participants 1000` makes
  // them, same seed), each past the study's end: her account and consent as research-export's consumers keep them,
  // and every night as last revised, written straight into the read model here.
  // One participant at a time (the same person as in a cohort of any size), written in
  // batches, so the generator's data is not in this process's memory during the run.
  const now = new Date('2026-11-22T02:00:00Z');
  let enrolled = 0;
  for (let first = 1; first <= PARTICIPANTS; first += 50) {
    const batch = Array.from({ length: Math.min(50, PARTICIPANTS - first + 1) }, (_, i) =>
      generateParticipant('bench', first + i, now, { stage: 'completed' }),
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

  // The rounds run in a process of their own, so its peak RSS is the run's and not this
  // one's (tsx, the cohort generator and what it made), compiled as the service runs, in the
  // service's dist/ (its package.json above, as for the service's own bundle), with the
  // service's Node options (its young generation's size among them).
  const outdir = fileURLToPath(new URL('../services/research-export/dist/bench', import.meta.url));
  await compile({ 'research-export-rounds': fileURLToPath(new URL('./research-export-rounds.ts', import.meta.url)) }, outdir);
  const child = spawnSync(process.execPath, [...APP_NODE_ARGS, `${outdir}/research-export-rounds.js`], {
    env: { ...process.env, DATABASE_URL, BENCH_DATABASE: database, BENCH_ROUNDS: String(ROUNDS) },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`the rounds failed (exit ${child.status})`);
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as RoundsResult;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const runMs = median(result.rounds.map((r) => r.runMs));
  const floorMs = median(result.rounds.map((r) => r.floorMs));

  console.log(
    `research run over ${PARTICIPANTS} participants through the whole study (${enrolled} enrolled, ${n} nights; median of ${ROUNDS} alternating rounds)`,
  );
  console.log(
    `  run: ${(runMs / 1000).toFixed(2)} s (goal ≤ 5 s); zip ${mb(result.zipBytes)}; peak RSS of the process that made the runs ${mb(result.peakRss)} (goal ≤ 300 MB), ${mb(result.rssBefore)} of it before the first (its libraries)`,
  );
  console.log(`  floor (COPY of the nights to stdout): ${(floorMs / 1000).toFixed(2)} s, ${mb(result.copiedBytes)}`);
  console.log(`  ratio run / floor: ${median(result.rounds.map((r) => r.runMs / r.floorMs)).toFixed(1)}× (goal ≤ 3×)`);
} finally {
  await sql.end({ timeout: 5 });
  await dropDatabase(DATABASE_URL, database);
}
