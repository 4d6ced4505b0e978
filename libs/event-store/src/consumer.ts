import { RetryLater, type Bus, type StreamName, type Subscription } from '@sleepweave/bus';
import type { Logger } from 'pino';
import { catchUp, type HistorySource } from './history.ts';
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
  logger: Logger;
}

/**
 * `catching_up`: reading the producer's history; `following`: the bus; `failing`: retrying
 * either; `stuck`: following, but an event has failed again and again (libs/bus,
 * STUCK_AFTER_DELIVERIES), and is still retried.
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
 * up with the producer's history (unless it did before), then follows the bus with a
 * durable consumer. Both run in the background and are retried with backoff while the
 * producer, the database or NATS is unreachable, so a service starts whatever else is down.
 */
export function startConsumer(options: ConsumerOptions): Consumer {
  const { sql, bus, name, stream, types, handle, history, orderKey } = options;
  const log = options.logger.child({ component: 'consumer', consumer: name });
  const abort = new AbortController();
  let state: ConsumerState = 'catching_up';
  let subscription: Subscription | null = null;
  let markCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
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
    let caught = false;
    for (let failures = 0; !abort.signal.aborted;) {
      try {
        if (!caught) {
          await catchUp(sql, { name, types, handle, source: history, orderKey }, log);
          caught = true;
          markCaughtUp();
        }
        if (abort.signal.aborted) return;
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
        return;
      } catch (err) {
        if (abort.signal.aborted) return;
        failures += 1;
        state = 'failing';
        const retryInMs = backoffMs(failures);
        if (err instanceof RetryLater)
          log.info({ reason: err.message, retryInMs }, 'an event of the history cannot be applied yet; retrying');
        else if (!caught && retryLogLevel(err, failures) === 'info')
          log.info({ failures, retryInMs, producer: history.name }, `${history.name} does not answer yet (starting?); retrying`);
        else log.error({ err, failures, retryInMs, producer: history.name }, 'consumer could not catch up or subscribe; retrying');
        await sleep(retryInMs);
      }
    }
  })();

  return {
    name,
    // following the bus only while its subscription does (not while NATS is away)
    state: () => {
      const following = subscription?.state();
      if (state !== 'following' || following === undefined || following === 'following') return state;
      return following === 'stuck' ? 'stuck' : 'failing';
    },
    caughtUp,
    async stop() {
      abort.abort();
      await loop;
      await subscription?.stop();
    },
  };
}
