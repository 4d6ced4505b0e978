import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startUpkeep, type UpkeepTask } from './upkeep.ts';

/** A logger whose lines the test reads. */
function recordingLogger() {
  const lines: { level: number; msg: string; component?: string; [key: string]: unknown }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await sleep(5);
  }
}

describe('startUpkeep', () => {
  it('runs every task once a round, after the first wait, until stopped', async () => {
    const runs: string[] = [];
    const task = (name: string): UpkeepTask => ({
      name,
      run: async () => {
        runs.push(name);
        return undefined;
      },
    });
    const { logger } = recordingLogger();
    const upkeep = startUpkeep(logger, [task('a'), task('b')], { component: 'test', firstAfterMs: 60, everyMs: 10 });
    await sleep(30);
    expect(runs).toEqual([]);
    await until(() => runs.length >= 6, 'three rounds');
    expect(runs.slice(0, 6)).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    await upkeep.stop();
    const done = runs.length;
    await sleep(50);
    expect(runs.length).toBe(done);
  });

  it('a stop ends the wait at once', async () => {
    const { logger } = recordingLogger();
    const upkeep = startUpkeep(logger, [], { component: 'test', everyMs: 60_000 });
    const stopping = Date.now();
    await upkeep.stop();
    expect(Date.now() - stopping).toBeLessThan(500);
  });

  it('logs what a task did, nothing when it did nothing, and keeps going past a failure', async () => {
    let round = 0;
    const counted: UpkeepTask = {
      name: 'pruning the rows',
      run: async () => ({ deleted: round++ === 0 ? 0 : 3 }),
    };
    let failures = 0;
    const failing: UpkeepTask = {
      name: 'pruning the other rows',
      run: async () => {
        failures += 1;
        throw new Error('the database is away');
      },
    };
    const after: number[] = [];
    const last: UpkeepTask = {
      name: 'the last task',
      run: async () => {
        after.push(round);
        return undefined;
      },
    };
    const { logger, lines } = recordingLogger();
    const upkeep = startUpkeep(logger, [counted, failing, last], { component: 'rows', firstAfterMs: 0, everyMs: 10 });
    try {
      await until(() => after.length >= 2 && failures >= 2, 'two rounds');
    } finally {
      await upkeep.stop();
    }
    // the failing task neither stopped the one after it nor the next round
    expect(after.slice(0, 2)).toEqual([1, 2]);
    const infos = lines.filter((line) => line.level === 30);
    expect(infos[0]).toMatchObject({ component: 'rows', msg: 'pruning the rows', deleted: 3 });
    expect(infos.filter((line) => line.deleted === 0)).toEqual([]);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors[0]).toMatchObject({ component: 'rows', msg: 'pruning the other rows failed; trying again at the next round' });
    expect((errors[0]!.err as { message: string }).message).toBe('the database is away');
  });
});
