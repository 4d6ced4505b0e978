import { RetryLater, STUCK_AFTER_DELIVERIES, type Bus, type StreamName, type Subscription } from '@sleepweave/bus';
import type { Logger } from 'pino';
import { catchUp, checkpointOf, HistoryUnreadable, type HistorySource } from './history.ts';
import { applyBatchOnce, applyOnce, type EnvelopeHandler, type OrderKey } from './inbox.ts';
import type { Sql } from './types.ts';

export interface ConsumerOptions {
  sql: Sql;
  bus: Pick<Bus, 'consume'>;
  /** Durable consumer name and inbox consumer name: `<consumer>-<source>-<purpose>`. */
  name: string;
  stream: StreamName;
  types: string[];
  handle: EnvelopeHandler;
  /** Its events of different keys are independent: a batch applies them by key (inbox.ts). */
  orderKey?: OrderKey;
  /** The producer's history, read before following the bus (docs/architecture.md, "Late joiners"). */
  history: HistorySource;
  /**
   * Catch up only once this resolves: a consumer whose handler reads what another consumer
   * keeps (e.g. a directory of users) waits for that one's catch-up.
   */
  after?: Promise<void>;
  /** How often it reads the producer's history again while it follows the bus (default {@link HISTORY_SWEEP_MS}). */
  sweepIntervalMs?: number;
  /** Failures in a row of an event of the history before it reports `stuck` (default {@link STUCK_AFTER_DELIVERIES}). */
  stuckAfterFailures?: number;
  /** How long its readings of the producer's history may fail before it reports `stuck` (default {@link STUCK_UNREAD_MS}). */
  stuckUnreadMs?: number;
  logger: Logger;
}

/**
 * A consumer that follows the bus reads its producer's history again this often, from where
 * it last got to (history.ts, catchUp): an event the bus lost (a NATS server that lost its
 * store) or forgot (it keeps events 7 days; a consumer stuck that long) is applied from
 * there within this time, and one it cannot apply keeps its consumer `stuck`.
 */
export const HISTORY_SWEEP_MS = 15 * 60_000;

/**
 * A consumer that follows the bus, but whose readings of its producer's history have failed
 * for this long (the producer away, or answering an error for a page every time), reports
 * `stuck`: what the bus lost meanwhile is not applied, and the inbox keeps every row it
 * writes until a reading goes through (inbox.ts, pruneInbox). A reading under way, however
 * long (a checkpoint from before consumers read their history again), is not a failure.
 */
export const STUCK_UNREAD_MS = 2 * HISTORY_SWEEP_MS;

/**
 * `catching_up`: reading the producer's history the first time; `following`: the bus;
 * `failing`: retrying either; `stuck`: following, but an event (from the bus or the
 * history) has failed again and again (libs/bus, STUCK_AFTER_DELIVERIES), and is still
 * retried.
 */
export type ConsumerState = 'catching_up' | 'following' | 'failing' | 'stuck';

export interface Consumer {
  readonly name: string;
  state(): ConsumerState;
  /** Resolves once it has caught up with the producer's history (never rejects). */
  readonly caughtUp: Promise<void>;
  stop(): Promise<void>;
}

function backoffMs(failures: number): number {
  return Math.min(30_000, 500 * 2 ** Math.min(failures - 1, 10));
}

/** True when `err` (or what caused it: fetch's `cause`, a connect's AggregateError) is a refused connection. */
function connectionRefused(err: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [err];
  while (pending.length > 0) {
    const e = pending.pop();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    if ((e as { code?: unknown }).code === 'ECONNREFUSED') return true;
    pending.push((e as { cause?: unknown }).cause, ...((e as { errors?: unknown[] }).errors ?? []));
  }
  return false;
}

/**
 * How a failed catch-up or subscription is logged. A producer that refuses the connection
 * for the first few tries is a system starting together (npm start, a deploy): the
 * consumers of identity's history ask before identity listens. That is said as what it is,
 * at info and without a stack; an error from the 4th try on (3.5 s of retries), or at once
 * for anything else.
 */
export function retryLogLevel(err: unknown, failures: number): 'info' | 'error' {
  return failures <= 3 && connectionRefused(err) ? 'info' : 'error';
}

/**
 * A consumer whose handler updates a read model exactly once per event: it first catches
 * up with the producer's history, from where it last got to (from the start the first
 * time), then follows the bus with a durable consumer, and reads the history again every
 * `sweepIntervalMs` for what the bus lost. All of it runs in the background and is retried
 * with backoff while the producer, the database or NATS is unreachable, so a service starts
 * whatever else is down.
 */
export function startConsumer(options: ConsumerOptions): Consumer {
  const { sql, bus, name, stream, types, handle, history, orderKey } = options;
  const sweepIntervalMs = options.sweepIntervalMs ?? HISTORY_SWEEP_MS;
  const stuckAfterFailures = options.stuckAfterFailures ?? STUCK_AFTER_DELIVERIES;
  const stuckUnreadMs = options.stuckUnreadMs ?? STUCK_UNREAD_MS;
  // since when its readings of the history have failed (null: the last one went through, or is under way)
  let unreadSince: number | null = null;
  const log = options.logger.child({ component: 'consumer', consumer: name });
  const abort = new AbortController();
  let state: ConsumerState = 'catching_up';
  let subscription: Subscription | null = null;
  // A sweep failed to apply an event of the history this many times in a row.
  let sweepApplyFailures = 0;
  let markCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (abort.signal.aborted) return resolve(); // (its listener would never be called)
      const timer = setTimeout(done, ms);
      abort.signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        abort.signal.removeEventListener('abort', done);
        resolve();
      }
    });

  const loop = (async () => {
    if (options.after) await Promise.race([options.after, new Promise((resolve) => abort.signal.addEventListener('abort', resolve))]);
    const follow = async () => {
      if (subscription) return;
      subscription = await bus.consume({
        stream,
        durable: name,
        types,
        handler: async (envelope) => {
          const applied = await applyOnce(sql, name, envelope, handle);
          if (!applied) log.debug({ eventId: envelope.id, type: envelope.type }, 'duplicate event ignored');
        },
        handleBatch: async (envelopes) => {
          await applyBatchOnce(sql, name, envelopes, handle, orderKey);
        },
      });
      state = 'following';
    };
    for (let failures = 0; !abort.signal.aborted;) {
      try {
        // A checkpoint from before consumers read their history again may lie months back:
        // it follows the bus first, and reads that once, in the background.
        if (!subscription && (await checkpointOf(sql, name)) === 'legacy') {
          markCaughtUp();
          await follow();
        }
        try {
          await catchUp(sql, { name, types, handle, source: history, orderKey, signal: abort.signal }, log);
        } catch (err) {
          // At its start, its producer cannot be read or an event of the history cannot be
          // applied, but it caught up before: it follows the bus meanwhile (the consumers
          // declared after it start too), and the history is read again until it goes through.
          if (subscription || (await checkpointOf(sql, name)) === 'none') throw err;
          markCaughtUp();
          if (!abort.signal.aborted) await follow();
          throw err;
        }
        markCaughtUp();
        sweepApplyFailures = 0;
        unreadSince = null;
        if (abort.signal.aborted) return;
        await follow();
        failures = 0;
        await sleep(sweepIntervalMs);
      } catch (err) {
        if (abort.signal.aborted) return;
        failures += 1;
        const following = subscription !== null;
        if (!following) state = 'failing';
        else if (!(err instanceof HistoryUnreadable)) sweepApplyFailures += 1;
        else unreadSince ??= Date.now();
        const retryInMs = backoffMs(failures);
        if (err instanceof RetryLater)
          log.info({ reason: err.message, retryInMs }, 'an event of the history cannot be applied yet; retrying');
        else if (err instanceof HistoryUnreadable && retryLogLevel(err, failures) === 'info')
          log.info({ failures, retryInMs, producer: history.name }, `${history.name} does not answer yet (starting?); retrying`);
        else if (following)
          log.error({ err, failures, retryInMs, producer: history.name }, 'consumer could not read its producer history again; retrying');
        else log.error({ err, failures, retryInMs, producer: history.name }, 'consumer could not catch up or subscribe; retrying');
        await sleep(retryInMs);
      }
    }
  })();

  return {
    name,
    // following the bus only while its subscription does (not while NATS is away), and
    // the history's events apply
    state: () => {
      if (!subscription) return state;
      const following = subscription.state();
      if (following === 'stuck' || sweepApplyFailures >= stuckAfterFailures) return 'stuck';
      if (unreadSince !== null && Date.now() - unreadSince > stuckUnreadMs) return 'stuck';
      return following === 'following' ? 'following' : 'failing';
    },
    caughtUp,
    async stop() {
      abort.abort();
      await loop;
      await subscription?.stop();
    },
  };
}
