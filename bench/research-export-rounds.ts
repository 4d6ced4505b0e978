/**
 * The timed rounds of bench/research-export.bench.ts, in a process of their own so that its
 * peak RSS is the run's: over the database BENCH_DATABASE that the bench filled, BENCH_ROUNDS
 * times a floor (a COPY of the nights to stdout) and a research run, alternating. Prints
 * one line of JSON ({@link RoundsResult}). BENCH_PROFILE=<file.cpuprofile> writes a CPU
 * profile of the rounds, BENCH_HEAP_PROFILE=<file.heapprofile> a sampling profile of every
 * allocation they make (collected or not), both for Chrome's DevTools.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { connectDatabase, createLogger } from '@sleepweave/service-kit';
import { readResearchExportConfig } from '../services/research-export/src/config.ts';
import { createResearchExportContext } from '../services/research-export/src/context.ts';
import { buildResearchZip } from '../services/research-export/src/export/research-zip.ts';

export interface RoundsResult {
  rounds: { runMs: number; floorMs: number }[];
  zipBytes: number;
  copiedBytes: number;
  /** Peak RSS (bytes) before the first round and at the end. */
  rssBefore: number;
  peakRss: number;
}

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const database = process.env.BENCH_DATABASE;
if (!database) throw new Error('BENCH_DATABASE: the database bench/research-export.bench.ts filled');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const peakRss = () => process.resourceUsage().maxRSS * 1024;

const sql = connectDatabase(DATABASE_URL, database, { max: 4 });
try {
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

  // The run, as the worker makes it.
  const config = readResearchExportConfig({ ...process.env, DATABASE_URL, DB_PREFIX: '', RESEARCH_EXPORT_TIME: 'off' });
  const ctx = createResearchExportContext({ config, sql, logger: createLogger('bench', 'silent') });
  const rssBefore = peakRss();
  const result: RoundsResult = { rounds: [], zipBytes: 0, copiedBytes: 0, rssBefore, peakRss: rssBefore };
  const profiler = process.env.BENCH_PROFILE || process.env.BENCH_HEAP_PROFILE ? new Session() : null;
  if (profiler) profiler.connect();
  if (profiler && process.env.BENCH_PROFILE) {
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  if (profiler && process.env.BENCH_HEAP_PROFILE) {
    // every allocation sampled, kept or not: what the garbage collector is given to do
    await profiler.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  for (let round = 0; round < ROUNDS; round++) {
    const f = await floor();
    result.copiedBytes = f.bytes;
    const started = performance.now();
    const output = await buildResearchZip(ctx, new Date('2026-11-22T02:00:00Z'));
    result.rounds.push({ runMs: performance.now() - started, floorMs: f.ms });
    result.zipBytes = output.zip.length;
  }
  if (profiler && process.env.BENCH_PROFILE) {
    const { profile } = await profiler.post('Profiler.stop');
    await writeFile(process.env.BENCH_PROFILE, JSON.stringify(profile));
  }
  if (profiler && process.env.BENCH_HEAP_PROFILE) {
    const { profile } = await profiler.post('HeapProfiler.stopSampling');
    await writeFile(process.env.BENCH_HEAP_PROFILE, JSON.stringify(profile));
  }
  profiler?.disconnect();
  result.peakRss = peakRss();
  console.log(JSON.stringify(result));
} finally {
  await sql.end({ timeout: 5 });
}
