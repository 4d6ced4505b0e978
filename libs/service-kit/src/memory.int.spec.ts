/**
 * The idle memory release (memory.ts) against V8 itself, in a process of its own: after a
 * burst the young generation stays large in a process left idle, and the release gives it
 * back; the old generation's holes too; and every service that runs as a process of its own
 * has it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notesService } from '../test/notes-service.ts';
import { BaseConfig, loadConfig } from './config.ts';
import { startTestService, testEnv, type TestService } from './testing.ts';

const memoryModule = fileURLToPath(new URL('./memory.ts', import.meta.url));

/** A burst (objects that live a while, as a start-up's do), then idle; prints the young generation's size after `waitMs`. */
const script = (release: boolean, waitMs: number) => `
  import { getHeapSpaceStatistics } from 'node:v8';
  import { releaseMemoryWhenIdle } from ${JSON.stringify(memoryModule)};
  const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').physical_space_size;
  const release = ${release} ? releaseMemoryWhenIdle() : null;
  let keep = [];
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < 20_000; i++) keep.push({ i, s: 'x' + i });
    if (keep.length > 100_000) keep = [];
  }
  keep = [];
  const afterBurst = young();
  setTimeout(() => {
    console.log(JSON.stringify({ afterBurst, afterIdle: young(), collections: release?.collections ?? 0 }));
    release?.stop();
  }, ${waitMs});
`;

type Young = { afterBurst: number; afterIdle: number; collections: number };
type Old = { committed: number; used: number };

/** Runs `source` (one of the scripts above) in a process of its own and reads what it prints. */
function run<Printed = Young>(release: boolean, waitMs: number, source = script): Promise<Printed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source(release, waitMs)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}`))));
  });
}

const MB = 1024 * 1024;

describe('releaseMemoryWhenIdle in a process', () => {
  it('gives back the young generation a burst grew, which an idle process otherwise keeps', { timeout: 40_000 }, async () => {
    // V8's default young generation (16 MB semi-spaces) needs two idle collections: the slowest case.
    const [kept, released] = await Promise.all([run(false, 15_000), run(true, 15_000)]);
    expect(kept.afterBurst).toBeGreaterThan(8 * MB);
    // Left alone, an idle process usually keeps it (kept.afterIdle === kept.afterBurst), but V8's own
    // memory reducer sometimes shrinks it on a loaded machine: not asserted (it failed a CI-like run).
    expect(released.afterBurst).toBeGreaterThan(8 * MB);
    expect(released.afterIdle).toBeLessThan(2 * MB);
    expect(released.collections).toBeGreaterThanOrEqual(1);
  });
});

/**
 * An old generation with holes on every page, as a start leaves it: objects promoted, then 2
 * of every 5 dropped (some 12 MB of holes). Prints its committed and used bytes after V8's own
 * full collection, then after `waitMs` idle with the release running (or without it).
 */
const fragmentedScript = (release: boolean, waitMs: number) => `
  import { getHeapSpaceStatistics } from 'node:v8';
  import { fullCollection, releaseMemoryWhenIdle } from ${JSON.stringify(memoryModule)};
  const old = () => {
    const space = getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
    return { committed: space.physical_space_size, used: space.space_used_size };
  };
  const gc = fullCollection();
  let keep = [];
  for (let i = 0; i < 300_000; i++) keep.push({ i, s: 'x' + i });
  gc();
  gc();
  keep = keep.filter((_, i) => i % 5 < 3);
  gc();
  const afterGc = old();
  const release = ${release} ? releaseMemoryWhenIdle({ everyMs: 100, idleForMs: 300 }) : null;
  setTimeout(() => {
    console.log(JSON.stringify({ afterGc, afterIdle: old(), kept: keep.length, collections: release?.collections ?? 0 }));
    release?.stop();
  }, ${waitMs});
`;

describe('releaseMemoryWhenIdle, the old generation', () => {
  it('gives back the pages a fragmented old generation holds beyond what it uses, which V8 itself keeps', { timeout: 40_000 }, async () => {
    type Printed = { afterGc: Old; afterIdle: Old; kept: number; collections: number };
    const [kept, released] = await Promise.all([run<Printed>(false, 3_000, fragmentedScript), run<Printed>(true, 3_000, fragmentedScript)]);
    // V8's own collections leave the holes where they are (used is what its last one found):
    // left alone, the old generation gives nothing back. It may take a page more while idle
    // (a CI run read 27,525,120 bytes after 27,262,976: one page of 256 KB), so not equal.
    expect(kept.afterIdle.committed).toBeGreaterThanOrEqual(kept.afterGc.committed);
    expect(released.collections).toBeGreaterThanOrEqual(1);
    // Compared with what the old generation left alone still uses (its holes counted, 24.3-24.5
    // MB in eight runs), not with what it commits: V8 itself sometimes commits less while idle
    // (25.9-30.1 MB in those runs), and against that an 8 MB margin failed 2 runs in 14.
    // Released, it committed 17.0-17.1 MB.
    expect(released.afterIdle.committed).toBeLessThan(kept.afterIdle.used - 4 * MB);
    expect(released.afterIdle.committed - released.afterIdle.used).toBeLessThan(2 * MB);
    expect(released.kept).toBe(180_000);
  });
});

describe('startService', () => {
  const Config = BaseConfig.extend({ PORT: z.coerce.number().default(0) });
  let service: TestService<z.infer<typeof Config>, unknown> | null = null;
  afterEach(async () => {
    await service?.cleanup();
    service = null;
  });

  it('gives memory back when idle in a service that listens (a process of its own)', async () => {
    service = await startTestService(notesService, loadConfig(Config, testEnv()), { listen: true });
    expect(service.memory).not.toBeNull();
  });

  it('leaves that to the process in a service started for app.inject', async () => {
    service = await startTestService(notesService, loadConfig(Config, testEnv()));
    expect(service.memory).toBeNull();
  });
});
