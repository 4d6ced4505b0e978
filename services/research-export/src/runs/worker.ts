import type { ResearchRunSummary } from '@sleepweave/contracts';
import { connectDatabase, databaseName, execute, type BackgroundWorker, type Sql } from '@sleepweave/service-kit';
import type { Tx } from '@sleepweave/event-store';
import type { ResearchExportContext } from '../context.ts';
import { runDecider } from './business-logic.ts';
import { failRun, scheduleNightlyRun, startRun } from './commands.ts';
import { runStreamId } from './run.ts';
import { nightlyRunDue } from './schedule.ts';

/** What a run produces: the zip and what the admin screen shows of it. */
export interface RunOutput {
  zip: Buffer;
  fileName: string;
  summary: ResearchRunSummary;
}

/**
 * Makes a run's zip: `now` is when it started (what its data is as of); `requestedAt`, when it
 * was asked for, dates its file (the nightly run of a date is named for that date, though it
 * starts after midnight).
 */
export type BuildRun = (ctx: ResearchExportContext, now: Date, requestedAt: Date) => Promise<RunOutput>;

export interface RunWorker extends BackgroundWorker {
  /** Look at once (an admin just queued a run). */
  wake(): void;
}

/** When the service's database was made: its first migration (they are applied before any worker starts). */
async function databaseMadeAt(sql: Sql): Promise<Date> {
  const [row] = await sql<{ made: Date }[]>`select min(applied_at) as made from schema_migrations`;
  return row!.made;
}

/**
 * One run at a time across every instance: a session lock held while it runs. A
 * participant's deletion waits on it too (users/user-deleted.ts).
 */
export const RUN_LOCK = 'research-export:run';

/** How long a stop waits for a poll cycle (not a run) to end by itself. */
const STOP_GRACE_MS = 1_000;

export const INTERRUPTED_MESSAGE = 'Interrupted: the service stopped during the run. Please run it again.';

export const LOCK_LOST_MESSAGE = 'Interrupted: the service lost its connection to the database during the run. Please run it again.';

/**
 * The run lock went with its connection (the database restarted, the network cut it)
 * while the run was being made: a participant's deletion may have gone ahead meanwhile
 * without waiting for the run, and another instance may be running.
 */
class RunLockLost extends Error {
  constructor() {
    super(LOCK_LOST_MESSAGE);
  }
}

/**
 * The research runs' worker, in every instance: every `pollMs` (and when woken) it queues
 * the night's run once it is due (once per date, whichever instance gets there first; none
 * for a time before the service's database was made), then,
 * if it can take the run lock, runs what is queued, oldest first. A run left `running` by
 * an instance that died (its lock went with its connection) is marked failed, with why.
 */
export function startRunWorker(ctx: ResearchExportContext, build: BuildRun, options: { pollMs?: number } = {}): RunWorker {
  const pollMs = options.pollMs ?? 5_000;
  const log = ctx.logger.child({ component: 'research-runs' });
  // Its own connection: the session lock must live exactly as long as the run's work.
  // The server probes it when silent (TCP keepalive, a minute at most): a network cut or a
  // frozen instance then ends its session, and frees the lock, in about a minute instead of
  // the two hours of the system's default; a deletion of a participant waits on it meanwhile.
  const lockConnection: Sql = connectDatabase(ctx.config.DATABASE_URL, databaseName(ctx.config, 'research-export'), {
    max: 1,
    holdsSessionLock: true,
    settings: { tcp_keepalives_idle: '30', tcp_keepalives_interval: '10', tcp_keepalives_count: '3' },
  });
  let stopped = false;
  /** A run is being built (its work is waited for at stop; a poll cycle's is not). */
  let building = false;
  /** When this service's database was made (its first migration): no nightly run is owed from before. */
  let since: Date | null = null;
  let wakeUp: (() => void) | null = null;

  async function runQueued(): Promise<void> {
    const [lock] = await lockConnection<{ locked: boolean; pid: number }[]>`
      select pg_try_advisory_lock(hashtext(${RUN_LOCK})) as locked, pg_backend_pid() as pid`;
    if (!lock?.locked) return;
    try {
      for (const { id } of await ctx.sql<{ id: string }[]>`select id from research_runs where status = 'running'`) {
        log.warn({ runId: id }, 'a run was interrupted; marking it failed');
        await failRun(ctx, id, new Date(), INTERRUPTED_MESSAGE);
      }
      while (!stopped) {
        const [next] = await ctx.sql<{ id: string }[]>`select id from research_runs where status = 'queued' order by requested_at limit 1`;
        if (!next) return;
        building = true;
        try {
          await runOne(next.id, lock.pid);
        } finally {
          building = false;
        }
      }
    } finally {
      await lockConnection`select pg_advisory_unlock(hashtext(${RUN_LOCK}))`;
    }
  }

  /** `lockPid`: the database session that holds the run lock for it. */
  async function runOne(runId: string, lockPid: number): Promise<void> {
    const startedAt = new Date();
    await startRun(ctx, runId, startedAt);
    log.info({ runId }, 'research run started');
    try {
      const [row] = await ctx.sql<{ requested_at: Date }[]>`select requested_at from research_runs where id = ${runId}`;
      const output = await build(ctx, startedAt, row?.requested_at ?? startedAt);
      // The zip and the run's end in one transaction (a finished run always has its file),
      // on the connection that holds the lock: in the session the run was made under, so no
      // deletion of a participant it may hold has gone by without waiting for it
      // (users/user-deleted.ts), and a session lost before the commit takes the
      // transaction with it.
      try {
        await lockConnection.begin((tx) =>
          execute(ctx, { metadata: { correlationId: runId }, tx: tx as unknown as Tx }, async ({ tx, handle }) => {
            const [session] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
            if (session?.pid !== lockPid) throw new RunLockLost(); // connected again since: the lock went with the session before
            await tx`insert into research_run_files (run_id, content) values (${runId}, ${output.zip})`;
            await handle(runStreamId(runId), runDecider, {
              type: 'FinishRun',
              data: { now: new Date(), fileName: output.fileName, sizeBytes: output.zip.length, summary: output.summary },
            });
          }),
        );
      } catch (err) {
        if (!(err instanceof RunLockLost) && !(await holdsLock(lockPid))) throw new RunLockLost();
        throw err;
      }
      await pruneFiles();
      log.info({ runId, bytes: output.zip.length, ms: Date.now() - startedAt.getTime() }, 'research run finished');
    } catch (err) {
      if (err instanceof RunLockLost) {
        log.warn({ runId }, 'research run lost its lock; marking it failed');
        await failRun(ctx, runId, new Date(), LOCK_LOST_MESSAGE);
        throw err; // no next run without the lock
      }
      log.error({ err, runId }, 'research run failed');
      await failRun(ctx, runId, new Date(), `Failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Whether the lock's connection is still the session `lockPid` (that holds the run lock). */
  async function holdsLock(lockPid: number): Promise<boolean> {
    try {
      const [session] = await lockConnection<{ pid: number }[]>`select pg_backend_pid() as pid`;
      return session?.pid === lockPid;
    } catch {
      return false;
    }
  }

  /** Keeps the zips of the newest RESEARCH_RUNS_KEPT finished runs; the runs' records stay. */
  async function pruneFiles(): Promise<void> {
    await ctx.sql`
      delete from research_run_files where run_id not in (
        select id from research_runs where status = 'finished' order by finished_at desc limit ${ctx.config.RESEARCH_RUNS_KEPT}
      )`;
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        const now = new Date();
        const time = ctx.config.RESEARCH_EXPORT_TIME;
        let due: string | null = null;
        if (time !== 'off') {
          since ??= await databaseMadeAt(ctx.sql);
          due = nightlyRunDue(now, time, ctx.config.RESEARCH_EXPORT_TIMEZONE, since);
        }
        if (due) {
          const runId = await scheduleNightlyRun(ctx, due, now);
          if (runId) log.info({ runId, date: due }, 'nightly research run queued');
        }
        await runQueued();
      } catch (err) {
        log.error({ err }, 'research runs: a cycle failed; trying again');
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
        wakeUp = done;
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
      });
    }
  })();

  return {
    wake: () => wakeUp?.(),
    async stop() {
      stopped = true;
      wakeUp?.();
      // A run in progress is finished (its file and its end are written together). A poll
      // cycle is not waited for beyond a moment: its query waits for as long as the database
      // is away (the client tries to connect again), and a stop would then never end. Ending
      // the connections fails what waits on them (the service's pool ends after its workers).
      if (building) await loop;
      else await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
      await lockConnection.end({ timeout: 5 });
    },
  };
}
