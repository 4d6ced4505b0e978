/**
 * npm run bench (research export): a full research run over 1,000 participants × 42
 * nights, its time and the process's peak RSS, printed beside its floor: a
 * `COPY (select ... from research_nights) TO STDOUT` of the same rows on the same
 * database, in the same run, alternating (goals: run ≤ 5 s, peak RSS ≤ 300 MB, ≤ 3× the floor).
 * It uses its own database and removes it afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { migrateEventStore } from '@sleepweave/event-store';
import { connectDatabase, createLogger, dropDatabase, ensureDatabase, migrateUserDirectory, runMigrations } from '@sleepweave/service-kit';
import { readResearchExportConfig } from '../services/research-export/src/config.ts';
import { createResearchExportContext } from '../services/research-export/src/context.ts';
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

  // 1,000 participants who each logged all 42 nights, with plausible values.
  await sql`
    insert into user_directory (user_id, email, first_name, last_name, date_of_birth, timezone, hormonal_stage, role, registered_at)
    select gen_random_uuid(), 'p' || i || '@example.com', 'P', 'Q', date '1960-01-01' + (i * 7), 'Europe/London', 'Menopause', 'participant', now()
    from generate_series(1, ${PARTICIPANTS}) as i`;
  await sql`
    insert into research_participants (user_id, research_id, study_start_date, consent_version, consented_at)
    select user_id, 'SW-' || upper(substr(md5(user_id::text), 1, 8)), date '2026-08-01', '1.0', now() from user_directory`;
  await sql`
    insert into research_nights (log_id, user_id, date, study_day, phase, recommended_material, sleepwear_material, sleep_score,
      total_sleep_minutes, sleep_efficiency, time_in_bed_minutes, resting_hr, restfulness, rem_minutes, deep_minutes, latency_minutes,
      timing_score, avg_spo2, breathing_regularity, lowest_hr, avg_hrv, sleep_quality_1_10, restfulness_self, morning_mood, dream_recall,
      fabric_comfort, emotional_calm, heat_wave, heat_wakeups, recorded_at)
    select gen_random_uuid(), p.user_id, date '2026-08-01' + (d - 1), d,
      case when d <= 14 then 'polyester' when d <= 28 then 'washout' else 'linen' end,
      case when d <= 14 then '100% Polyester' when d <= 28 then '100% Cotton' else '100% Linen' end,
      case when d <= 14 then '100% Polyester' when d <= 28 then '100% Cotton' else '100% Linen' end,
      60 + (random() * 35)::int, 380 + (random() * 80)::int, 80 + random() * 15, 470 + (random() * 40)::int, 55 + (random() * 15)::int,
      60 + (random() * 30)::int, 70 + (random() * 40)::int, 50 + (random() * 40)::int, 5 + (random() * 20)::int, 60 + (random() * 30)::int,
      94 + random() * 4, 'Good', 50 + (random() * 10)::int, 30 + random() * 40, 1 + (random() * 9)::int, 1 + (random() * 9)::int, 'Refreshed',
      random() < 0.5, 'Comfortable', 1 + (random() * 9)::int, random() < 0.3, (random() * 3)::int, date '2026-08-01' + d + interval '8 hours'
    from research_participants p, generate_series(1, 42) as d`;
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
  for (let round = 0; round < ROUNDS; round++) {
    const f = await floor();
    copied = f.bytes;
    const started = performance.now();
    const output = await buildResearchZip(ctx, new Date('2026-11-22T02:00:00Z'));
    rounds.push({ runMs: performance.now() - started, floorMs: f.ms });
    zipBytes = output.zip.length;
  }
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const runMs = median(rounds.map((r) => r.runMs));
  const floorMs = median(rounds.map((r) => r.floorMs));

  console.log(`research run: ${PARTICIPANTS} participants × 42 nights = ${n} nights (median of ${ROUNDS} alternating rounds)`);
  console.log(
    `  run: ${(runMs / 1000).toFixed(2)} s (goal ≤ 5 s); zip ${mb(zipBytes)}; peak RSS ${mb(peakRss)} (goal ≤ 300 MB; ${mb(baselineRss)} before the first run)`,
  );
  console.log(`  floor (COPY of the nights to stdout): ${(floorMs / 1000).toFixed(2)} s, ${mb(copied)}`);
  console.log(`  ratio run / floor: ${median(rounds.map((r) => r.runMs / r.floorMs)).toFixed(1)}× (goal ≤ 3×)`);
} finally {
  await sql.end({ timeout: 5 });
  await dropDatabase(DATABASE_URL, database);
}
