import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';

/** Work of a service's own in the background (its `workers`), stopped before the service. */
export interface BackgroundWorker {
  stop(): Promise<void>;
}

/** One task of a service's upkeep, run at every round. */
export interface UpkeepTask {
  /** What it does, for its log lines: 'pruning the inbox' (with its counts), '... failed'. */
  name: string;
  /**
   * Does one round's work as of `now`; returns counts of what it did, logged when any is
   * above 0 (nothing to log: undefined).
   */
  run(now: Date): Promise<Record<string, number> | undefined>;
}

export interface UpkeepOptions {
  /** The log lines' component. */
  component: string;
  /** Between rounds. */
  everyMs: number;
  /** Before the first round (default: everyMs). */
  firstAfterMs?: number;
}

/**
 * A service's housekeeping in the background: every task, one after the other, once a round
 * until stopped (a stop ends the wait between rounds at once, and waits for a round under
 * way). Every instance of a service runs its rounds, so a task must share its rows with
 * another instance's (skip locked, or work that may be done twice). A task's failure is
 * logged and it is tried again at the next round; the others still run.
 */
export function startUpkeep(logger: Logger, tasks: readonly UpkeepTask[], options: UpkeepOptions): BackgroundWorker {
  const log = logger.child({ component: options.component });
  const stopping = new AbortController();
  const wait = (ms: number) => delay(ms, undefined, { signal: stopping.signal }).catch(() => undefined);
  const loop = (async () => {
    await wait(options.firstAfterMs ?? options.everyMs);
    while (!stopping.signal.aborted) {
      for (const task of tasks) {
        if (stopping.signal.aborted) break;
        try {
          const done = await task.run(new Date());
          if (done && Object.values(done).some((count) => count > 0)) log.info(done, task.name);
        } catch (err) {
          if (!stopping.signal.aborted) log.error({ err }, `${task.name} failed; trying again at the next round`);
        }
      }
      await wait(options.everyMs);
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
