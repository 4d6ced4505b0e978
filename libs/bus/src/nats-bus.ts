import { setMaxListeners } from 'node:events';
import { connect, errors as natsErrors, nanos, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type ConsumerConfig,
  type ConsumerInfo,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { parseEnvelope, type EventEnvelope } from '@sleepweave/contracts';
import type { Logger } from 'pino';
import { durableNameFor, normalizePrefix, streamNameFor, streamOfType, streamSubjectsFor, subjectFor } from './naming.ts';
import {
  RetryLater,
  STREAMS,
  STUCK_AFTER_DELIVERIES,
  type Bus,
  type ConsumeOptions,
  type StreamName,
  type Subscription,
  type SubscriptionState,
  type Watch,
  type WatchOptions,
} from './types.ts';

export interface ConnectBusOptions {
  /** NATS server URL(s), comma separated, e.g. `nats://127.0.0.1:4222`. */
  servers: string;
  /** Deployment/test prefix; '' (default) in production. */
  prefix?: string;
  /** Connection name shown by the server (the service name). */
  name: string;
  logger: Logger;
}

/**
 * Events leave the bus after this long. PostgreSQL is the source of truth; the bus only
 * carries events between services, and personal data must not outlive a deletion there
 * (docs/data-protection.md). A consumer down for longer than this catches up by a
 * projection rebuild, not from the bus. At least the gateway's revocation memory (1 h).
 */
export const STREAM_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** JetStream de-duplicates a re-published msgID inside this window. */
export const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
/** A message not acked within this time is redelivered. */
export const ACK_WAIT_MS = 30_000;
/** Messages pulled per request by a durable consumer. */
const PULL_BATCH = 64;
/**
 * The server sends a consumer's pull (a durable's, a watch's) a heartbeat after this long
 * without a message; two missed in a row and the client pulls again. A pull the server no
 * longer holds (it refused or dropped it, or the client lost count of it) is noticed only
 * so, within 10-15 s: nats.js's default (15 s, half the pull's 30 s) left a consumer silent
 * for 30 s and more (a CI run). Not shorter: while a batch is applied the consumer reads no
 * further (APPLY_BATCH), so it holds no pull and gets no heartbeat, and nats.js then asks
 * for another 64 messages at each missed one, sent when it reads again: a batch would have
 * to take over 10 s for that (at 2 s, over 4 s, about 30 ms an event, which a loaded machine
 * reaches). Costs one small message per idle consumer every 5 s.
 */
export const PULL_HEARTBEAT_MS = 5_000;
/** At most this many messages that arrived together go to a consumer's `handleBatch` at once. */
const APPLY_BATCH = 128;
/** A stuck event not failed here for this long is no longer counted (twice the longest redelivery delay). */
const STUCK_FORGOTTEN_AFTER_MS = 60_000;

/** Redelivery delay after a failing handler: 250 ms doubling per delivery, at most 30 s. */
export function redeliveryDelayMs(deliveryCount: number): number {
  return Math.min(30_000, 250 * 2 ** Math.max(0, Math.min(deliveryCount - 1, 10)));
}
/**
 * How long a stream's or consumer's setup (info, add, update, delete) keeps trying while
 * NATS is away or its answers are lost, before it fails with the last error (a request sent
 * just before may take its 5 s timeout more).
 */
const API_PATIENCE_MS = 30_000;

/** NATS was not there for a request, or came back before its answer: nothing says it was not done. */
class NatsUnavailable extends Error {}

/** `promise`, or a NatsUnavailable as soon as `signal` aborts (what `promise` comes to then is ignored). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(new NatsUnavailable('stopped'));
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new NatsUnavailable('stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

function retryDelayMs(failures: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, Math.min(failures - 1, 10)));
}

/**
 * Connects to NATS and returns the {@link Bus}. Throws when the first connection fails
 * (the caller decides whether to retry); later disconnects reconnect forever.
 */
export async function connectBus(options: ConnectBusOptions): Promise<Bus> {
  const prefix = normalizePrefix(options.prefix);
  const logger = options.logger.child({ component: 'bus' });
  const nc = await connect({
    servers: options.servers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    // nats.js otherwise makes two errors (with their stack traces) up front for every request
    // it sends, a JetStream publish and a consumer's acknowledgement included, in case the
    // answer times out: 83 -> 42 µs of CPU a publish here (docs/performance.md). A timeout
    // is still a TimeoutError, made when it happens.
    noAsyncTraces: true,
  });
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc);
  return new NatsBus(nc, js, jsm, prefix, logger);
}

function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Which subject a consumer filters on.
 *
 * nats-server 2.9 (Debian's 2.9.10) has no `filter_subjects` (plural, 2.10+) on consumers.
 * One type: the consumer filters on that type's subject. Several types: it filters on the
 * stream's wildcard and the library acks and skips the other types itself (see `consume`).
 */
function filterFor(prefix: string, stream: StreamName, types: readonly string[]): string {
  if (types.length === 0) throw new Error(`a consumer on ${stream} needs at least one event type`);
  for (const type of types) {
    if (streamOfType(type) !== stream) {
      throw new Error(`event type '${type}' is not published on stream ${stream} (${STREAMS[stream]}.>)`);
    }
  }
  const [only] = types;
  return types.length === 1 && only ? subjectFor(prefix, only) : streamSubjectsFor(prefix, stream);
}

class NatsBus implements Bus {
  private readonly ensured = new Set<StreamName>();
  /** A stream being ensured: every publish that needs it waits for the same work. */
  private readonly ensuring = new Map<StreamName, Promise<void>>();
  /** Each open subscription, with how to reopen its pull after a reconnect. */
  private readonly subscriptions = new Map<Subscription, () => void>();
  private connected = true;
  private readonly reconnectListeners = new Set<() => void>();
  private closing = false;
  /** Aborted as this bus closes, or its connection does: nothing waits for NATS from then on. */
  private readonly closed = new AbortController();

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly prefix: string,
    private readonly logger: Logger,
  ) {
    void this.watchStatus();
    void nc.closed().then(() => this.closed.abort());
    setMaxListeners(0, this.closed.signal); // one for each wait under way: every subscription's after a reconnect
  }

  private async watchStatus(): Promise<void> {
    try {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') {
          this.connected = false;
          this.logger.warn({ server: status.server }, 'NATS disconnected');
        } else if (status.type === 'reconnect') {
          this.connected = true;
          this.logger.info({ server: status.server }, 'NATS reconnected');
          // A restarted server may have lost what backed the pulls, and the client's own
          // recovery can sit on a dead consumer until heartbeats are missed (30 s and more):
          // every subscription reopens its pull at once, from where it was.
          for (const reopen of this.subscriptions.values()) reopen();
          for (const listener of this.reconnectListeners) listener();
        }
      }
    } catch {
      // the status iterator ends with the connection
    }
  }

  isConnected(): boolean {
    return this.connected && !this.nc.isClosed();
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  async ensureStreams(names: readonly StreamName[]): Promise<void> {
    for (const name of names) await this.ensureStream(name, true);
  }

  /**
   * Adds the stream, or updates it when its config drifted. Idempotent; `force` skips the
   * cache. Calls made while one is under way wait for it (so publishes waiting for their
   * stream go on in the order they were made).
   */
  private ensureStream(stream: StreamName, force = false): Promise<void> {
    if (!force && this.ensured.has(stream)) return Promise.resolve();
    let ensuring = this.ensuring.get(stream);
    if (!ensuring) {
      ensuring = this.addOrUpdateStream(stream).finally(() => this.ensuring.delete(stream));
      this.ensuring.set(stream, ensuring);
    }
    return ensuring;
  }

  private async addOrUpdateStream(stream: StreamName): Promise<void> {
    const config = {
      name: streamNameFor(this.prefix, stream),
      subjects: [streamSubjectsFor(this.prefix, stream)],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      max_age: nanos(STREAM_MAX_AGE_MS),
      num_replicas: 1,
    };
    let existing;
    try {
      existing = await this.api(() => this.jsm.streams.info(config.name));
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
    }
    if (!existing) {
      try {
        await this.api(() => this.jsm.streams.add(config));
        this.logger.info({ stream: config.name }, 'stream created');
      } catch (err) {
        // Another process may have created it in the meantime.
        existing = await this.api(() => this.jsm.streams.info(config.name)).catch(() => {
          throw err;
        });
      }
    }
    if (existing) {
      const c = existing.config;
      const drifted =
        c.subjects?.join(',') !== config.subjects.join(',') ||
        c.duplicate_window !== config.duplicate_window ||
        c.max_age !== config.max_age ||
        c.retention !== config.retention;
      if (drifted) {
        const { subjects, duplicate_window, discard, max_age } = config;
        await this.api(() => this.jsm.streams.update(config.name, { subjects, duplicate_window, discard, max_age }));
        this.logger.info({ stream: config.name }, 'stream updated');
      }
    }
    this.ensured.add(stream);
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    const subject = subjectFor(this.prefix, envelope.type);
    const payload = JSON.stringify(envelope);
    const stream = streamOfType(envelope.type);
    // While disconnected the client would buffer the request, and its answer can be lost
    // with the reconnect: it hangs for the whole timeout. Fail at once; the caller retries.
    if (!this.isConnected()) throw new NatsUnavailable('NATS is not connected');
    // Sent at once when the stream is known (the client writes the request before its first
    // await), so that publishes made one after another are stored in that order.
    if (stream && !this.ensured.has(stream)) await this.ensureStream(stream);
    try {
      await this.answeredBeforeReconnect(this.js.publish(subject, payload, { msgID: envelope.id }));
    } catch (err) {
      // The stream may have vanished (e.g. JetStream storage reset), or the connection was
      // lost and made again before the answer came: recreate it if need be and retry once
      // (the message id makes a second copy of one that did land a duplicate NATS drops).
      // Timed out: NATS is away or does not answer; the caller retries (the relay, with backoff).
      if (!stream || err instanceof natsErrors.TimeoutError) throw err;
      this.logger.warn({ err, subject }, 'publish failed; re-ensuring the stream and retrying once');
      await this.ensureStream(stream, true);
      await this.answeredBeforeReconnect(this.js.publish(subject, payload, { msgID: envelope.id }));
    }
  }

  /**
   * A request's answer, or an error as soon as NATS reconnects first. A request sent just
   * before the connection went (its loss not yet noticed) is not sent again by the client,
   * and waited for its whole timeout (5 s) after NATS was back: a relay stuck in it held
   * every later event, a logout among them, that long.
   */
  private answeredBeforeReconnect<T>(request: Promise<T>): Promise<T> {
    let unlisten: () => void = () => undefined;
    const lost = new Promise<never>((_, reject) => {
      unlisten = this.onReconnect(() => reject(new NatsUnavailable('NATS reconnected before the answer came')));
    });
    // the request's own timeout, later, when the reconnect came first
    request.catch(() => undefined);
    return Promise.race([request, lost]).finally(unlisten);
  }

  /**
   * A JetStream API call that is safe to send again (a stream's or consumer's info, add,
   * update or delete), sent once NATS is there and sent again when its answer is lost.
   * nats.js drops what was written while it had no connection as it dials again, and never
   * answers a request sent just before the connection went: either waited its whole 5 s
   * timeout after NATS was back (a watch opened then failed with it, a stream ensured while
   * NATS was away was made 5 s after it came back). Other errors (the server's answers)
   * are thrown at once; these after API_PATIENCE_MS, or as soon as `signal` (a stopped
   * subscription's) aborts or the bus closes.
   */
  private async api<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    // either signal (not AbortSignal.any, whose followers long-lived signals kept on Node 20)
    const stopping = new AbortController();
    const stop = () => stopping.abort();
    const sources = signal ? [signal, this.closed.signal] : [this.closed.signal];
    for (const source of sources) {
      if (source.aborted) stop();
      else source.addEventListener('abort', stop, { once: true });
    }
    const deadline = Date.now() + API_PATIENCE_MS;
    try {
      for (;;) {
        try {
          await this.connectedBy(deadline, stopping.signal);
          return await untilAborted(this.answeredBeforeReconnect(call()), stopping.signal);
        } catch (err) {
          const lost = err instanceof NatsUnavailable || err instanceof natsErrors.TimeoutError;
          if (!lost || stopping.signal.aborted || Date.now() >= deadline) throw err;
        }
      }
    } finally {
      for (const source of sources) source.removeEventListener('abort', stop);
    }
  }

  /** Resolves once NATS is connected; throws when it is not by `deadline`, or once `stop` aborts. */
  private async connectedBy(deadline: number, stop: AbortSignal): Promise<void> {
    if (stop.aborted) throw new NatsUnavailable('stopped'); // nothing sent after a stop
    while (!this.isConnected()) {
      const left = deadline - Date.now();
      if (stop.aborted || left <= 0) throw new NatsUnavailable('NATS is not connected');
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          unlisten();
          stop.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, left);
        const unlisten = this.onReconnect(done);
        stop.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Creates the durable pull consumer or brings its config up to date. */
  private async ensureConsumer(streamName: string, durable: string, filter: string, signal?: AbortSignal): Promise<void> {
    const wanted: Partial<ConsumerConfig> = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: -1,
      max_ack_pending: 1000,
      filter_subject: filter,
    };
    let info: ConsumerInfo | undefined;
    try {
      info = await this.api(() => this.jsm.consumers.info(streamName, durable), signal);
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) throw err;
    }
    if (!info) {
      try {
        await this.api(() => this.jsm.consumers.add(streamName, wanted), signal);
        this.logger.info({ stream: streamName, durable, filter }, 'consumer created');
        return;
      } catch (err) {
        info = await this.api(() => this.jsm.consumers.info(streamName, durable), signal).catch(() => {
          throw err;
        });
      }
    }
    const c = info.config;
    if (c.filter_subject === filter && c.ack_wait === wanted.ack_wait && c.max_deliver === wanted.max_deliver) {
      return;
    }
    try {
      await this.api(
        () =>
          this.jsm.consumers.update(streamName, durable, {
            ack_wait: wanted.ack_wait,
            max_deliver: wanted.max_deliver,
            filter_subject: filter,
          }),
        signal,
      );
      this.logger.info({ stream: streamName, durable, filter }, 'consumer updated');
    } catch (err) {
      // nats-server 2.9 cannot change a consumer's filter subject. Recreate the consumer:
      // it then redelivers the stream from the start (DeliverPolicy.All), which is safe
      // because consumers apply each event once through their inbox.
      this.logger.warn({ err, stream: streamName, durable, filter }, 'consumer update refused; recreating it');
      await this.api(() => this.jsm.consumers.delete(streamName, durable), signal).catch((err: unknown) => {
        // deleted by a try whose answer was lost
        if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) throw err;
      });
      await this.api(() => this.jsm.consumers.add(streamName, wanted), signal);
    }
  }

  async consume(options: ConsumeOptions): Promise<Subscription> {
    const { stream, handler } = options;
    const types = new Set(options.types);
    const filter = filterFor(this.prefix, stream, options.types);
    const streamName = streamNameFor(this.prefix, stream);
    const durable = durableNameFor(this.prefix, options.durable);
    const log = this.logger.child({ durable });

    await this.ensureStream(stream, true);
    await this.ensureConsumer(streamName, durable, filter);

    const abort = new AbortController();
    let messages: ConsumerMessages | undefined;
    let needsSetup = false;
    let state: SubscriptionState = 'following';
    /** The pull's iterator is not read while APPLY_BATCH events wait (nats.js sends its next pull from there). */
    let readingPaused = false;
    /**
     * Events that failed at least stuckAfter times, by id, with when they last failed here.
     * An entry ends when the event is applied here, or a minute after its last failure here
     * (another instance sharing the durable may have applied it; still failing, it comes
     * back within 30 s).
     */
    const stuck = new Map<string, number>();
    const stuckAfter = options.stuckAfterDeliveries ?? STUCK_AFTER_DELIVERIES;
    const isStuck = (): boolean => {
      const now = Date.now();
      for (const [id, at] of stuck) if (now - at > STUCK_FORGOTTEN_AFTER_MS) stuck.delete(id);
      return stuck.size > 0;
    };

    /** Applies one message through `handler`: acked when it succeeds, nak'ed with a delay when it throws. */
    const processOne = async (m: JsMsg, envelope: EventEnvelope): Promise<void> => {
      try {
        await handler(envelope);
        m.ack();
        stuck.delete(envelope.id);
      } catch (err) {
        if (m.info.deliveryCount >= stuckAfter) stuck.set(envelope.id, Date.now());
        const delay = redeliveryDelayMs(m.info.deliveryCount);
        const context = { eventId: envelope.id, type: envelope.type, deliveryCount: m.info.deliveryCount, retryInMs: delay };
        if (err instanceof RetryLater) log.info({ ...context, reason: err.message }, 'event cannot be applied yet; it will be redelivered');
        else log.error({ err, ...context }, 'event handler failed; the event will be redelivered');
        m.nak(delay);
      }
    };

    /**
     * Applies the messages that arrived together, in order: with `handleBatch` all at once
     * (acked after it returns), or one by one when there is no `handleBatch`, only one
     * message, or the batch failed (then each is acked or redelivered on its own).
     */
    const processBatch = async (batch: JsMsg[]): Promise<void> => {
      const handled: { m: JsMsg; envelope: EventEnvelope }[] = [];
      for (const m of batch) {
        let envelope: EventEnvelope;
        try {
          envelope = parseEnvelope(m.json());
        } catch (err) {
          log.error({ err, subject: m.subject, seq: m.seq }, 'malformed event on the bus; terminating it');
          m.term(); // no reason: nats-server 2.9 does not parse '+TERM <reason>'
          continue;
        }
        // Several types share the stream wildcard filter (no filter_subjects on nats-server 2.9):
        // the types this consumer does not handle are acked and skipped here.
        if (types.has(envelope.type)) handled.push({ m, envelope });
        else m.ack();
      }
      if (handled.length > 1 && options.handleBatch) {
        try {
          await options.handleBatch(handled.map((h) => h.envelope));
          for (const { m, envelope } of handled) {
            m.ack();
            stuck.delete(envelope.id);
          }
          return;
        } catch (err) {
          log.debug({ err, events: handled.length }, 'batch failed; applying its events one by one');
        }
      }
      for (const { m, envelope } of handled) await processOne(m, envelope);
    };

    const watchNotifications = async (current: ConsumerMessages): Promise<void> => {
      try {
        for await (const s of current.status()) {
          if (s.type === 'consumer_not_found' || s.type === 'consumer_deleted' || s.type === 'stream_not_found') {
            log.warn({ notification: s.type }, 'consumer or stream is gone; recreating');
            needsSetup = true;
            state = 'recovering';
            current.stop();
            return;
          }
          if (s.type === 'exceeded_limits') {
            // e.g. "Exceeded MaxWaiting": the pull is not held; the missed heartbeats pull again
            log.warn({ code: s.code, description: s.description }, 'pull refused by the server; pulling again shortly');
          }
          if (s.type === 'heartbeats_missed') {
            // Reading paused for a batch being applied: no pull asked for, none held (not NATS away).
            if (readingPaused) continue;
            log.warn({ count: s.count }, 'consumer heartbeats missed; pulling again');
            state = 'recovering';
          }
          if (s.type === 'next') state = 'following'; // pulling again
        }
      } catch {
        // ends with the iterator
      }
    };

    const loop = (async () => {
      let failures = 0;
      while (!abort.signal.aborted && !this.nc.isClosed()) {
        try {
          if (needsSetup) {
            needsSetup = false;
            // shared with other callers, which it goes on for: this loop stops waiting when stopped
            await untilAborted(this.ensureStream(stream, true), abort.signal);
            await this.ensureConsumer(streamName, durable, filter, abort.signal);
          }
          const consumer = await this.api(() => this.js.consumers.get(streamName, durable), abort.signal);
          messages = await consumer.consume({ max_messages: PULL_BATCH, idle_heartbeat: PULL_HEARTBEAT_MS });
          if (abort.signal.aborted) {
            messages.stop();
            break;
          }
          void watchNotifications(messages);
          state = 'following';
          // The pull fills `waiting` while the batch before is applied; the next batch is
          // whatever arrived meanwhile (at most APPLY_BATCH), so a burst is applied in few
          // transactions and a lone event at once.
          const waiting: JsMsg[] = [];
          let pulled = false;
          let wake = null as (() => void) | null;
          let room = null as (() => void) | null;
          let applying = true;
          const current = messages;
          const applier = (async () => {
            try {
              for (;;) {
                if (waiting.length === 0) {
                  if (pulled) return;
                  await new Promise<void>((resolve) => (wake = resolve));
                  continue;
                }
                const batch = waiting.splice(0, APPLY_BATCH);
                room?.();
                if (abort.signal.aborted) {
                  // Pulled after stop(): hand them back for immediate redelivery.
                  for (const m of batch) m.nak();
                  continue;
                }
                await processBatch(batch);
                failures = 0;
              }
            } finally {
              // Failed (e.g. an ack on a closed connection): the pull stops, the loop retries.
              applying = false;
              current.stop();
              room?.();
            }
          })();
          try {
            for await (const m of current) {
              state = 'following';
              waiting.push(m);
              wake?.();
              while (applying && waiting.length >= APPLY_BATCH) {
                readingPaused = true;
                await new Promise<void>((resolve) => (room = resolve));
              }
              readingPaused = false;
            }
          } finally {
            readingPaused = false;
            pulled = true;
            wake?.();
            await applier;
          }
          // The iterator ended without stop(): pause briefly, then pull again.
          if (!abort.signal.aborted) await sleep(needsSetup ? 250 : 100, abort.signal);
        } catch (err) {
          if (abort.signal.aborted) break;
          failures += 1;
          needsSetup = true;
          state = 'recovering';
          log.error({ err, failures }, 'consumer loop failed; retrying');
          await sleep(retryDelayMs(failures), abort.signal);
        }
      }
    })();

    return this.track(
      abort,
      () => messages?.stop(),
      loop,
      () => (state === 'following' && isStuck() ? 'stuck' : state),
    );
  }

  async watch(options: WatchOptions): Promise<Watch> {
    const { stream, handler } = options;
    const types = new Set(options.types);
    const filter = filterFor(this.prefix, stream, options.types);
    const streamName = streamNameFor(this.prefix, stream);
    const log = this.logger.child({ watch: streamName, filter });

    await this.ensureStream(stream, true);

    const abort = new AbortController();
    let messages: ConsumerMessages | undefined;
    let state: SubscriptionState = 'following';
    /** The stream sequence to start from: always by sequence, never by time (see below). */
    const start = await this.firstSequenceSince(streamName, filter, options.since);
    let nextSeq = start.seq;
    let caught = false;
    let resolveCaughtUp!: () => void;
    const caughtUp = new Promise<void>((resolve) => (resolveCaughtUp = resolve));
    const markCaughtUp = () => {
      caught = true;
      resolveCaughtUp();
    };
    // Nothing stored to go through (one stored since is delivered with its count of those after it).
    if (start.pending === 0) markCaughtUp();

    // @nats-io/jetstream 3.3.1 recreates an ordered consumer after a reconnect from its own
    // config plus a start sequence; had it been opened with a start time, the server refuses
    // that ("optional start time is also set") and the watch silently stops. Opened by
    // sequence, the recreation is valid; its notifications tell us when it is not following.
    let opens = 0;
    const open = async (): Promise<ConsumerMessages> => {
      // Opened again (NATS came back): a stream that lost its store, made again, holds
      // nothing from here on to go through, and no message would say so.
      if (opens++ > 0 && !caught) {
        const { state: stored } = await this.api(() => this.jsm.streams.info(streamName), abort.signal);
        if (stored.last_seq < nextSeq) markCaughtUp();
      }
      const consumer = await this.api(
        () => this.js.consumers.get(streamName, { filter_subjects: filter, opt_start_seq: nextSeq }),
        abort.signal,
      );
      const opened = await consumer.consume({ idle_heartbeat: PULL_HEARTBEAT_MS });
      void (async () => {
        try {
          for await (const s of opened.status()) {
            if (s.type === 'reset' || s.type === 'heartbeats_missed' || s.type === 'stream_not_found') {
              if (state === 'following') log.warn({ notification: s.type }, 'watch interrupted; recovering');
              state = 'recovering';
            } else if (s.type === 'ordered_consumer_recreated') {
              if (state !== 'following') log.info('watch following again');
              state = 'following';
            }
          }
        } catch {
          // ends with the iterator
        }
      })();
      return opened;
    };

    // Open the first consumer before returning so the caller knows the watch is live.
    messages = await open();

    const loop = (async () => {
      let failures = 0;
      while (!abort.signal.aborted && !this.nc.isClosed()) {
        try {
          if (!messages) messages = await open();
          state = 'following';
          if (abort.signal.aborted) {
            messages.stop();
            break;
          }
          for await (const m of messages) {
            if (abort.signal.aborted) break;
            nextSeq = m.seq + 1;
            state = 'following';
            let envelope: EventEnvelope | null = null;
            try {
              envelope = parseEnvelope(m.json());
            } catch (err) {
              log.error({ err, subject: m.subject, seq: m.seq }, 'malformed event on the bus; skipped');
            }
            if (envelope && types.has(envelope.type)) {
              try {
                await handler(envelope);
              } catch (err) {
                log.error({ err, eventId: envelope.id, type: envelope.type }, 'watch handler failed; event skipped');
              }
            }
            if (m.info.pending === 0) markCaughtUp();
            failures = 0;
          }
          messages = undefined;
          if (!abort.signal.aborted) await sleep(100, abort.signal);
        } catch (err) {
          messages = undefined;
          if (abort.signal.aborted) break;
          failures += 1;
          state = 'recovering';
          log.error({ err, failures }, 'watch failed; retrying');
          await sleep(retryDelayMs(failures), abort.signal);
        }
      }
    })();

    return {
      ...this.track(
        abort,
        () => messages?.stop(),
        loop,
        () => (caught || state !== 'following' ? state : 'catching_up'),
      ),
      caughtUp,
    };
  }

  /**
   * The sequence of the first message of a stream stored at or after `since`, and how many
   * matching `filter` are stored from there: the starting point the server gives a probe
   * consumer opened by time (nats-server 2.9 has no direct get by time), read from its
   * info and the probe deleted again.
   */
  private async firstSequenceSince(streamName: string, filter: string, since: Date): Promise<{ seq: number; pending: number }> {
    const probe = await this.api(() =>
      this.jsm.consumers.add(streamName, {
        ack_policy: AckPolicy.None,
        deliver_policy: DeliverPolicy.StartTime,
        opt_start_time: since.toISOString(),
        filter_subject: filter,
        inactive_threshold: nanos(60_000),
        mem_storage: true,
      }),
    );
    // not waited for: gone by itself after its inactive_threshold when this delete is lost
    void this.jsm.consumers.delete(streamName, probe.name).catch(() => undefined);
    return { seq: probe.delivered.stream_seq + 1, pending: probe.num_pending };
  }

  /**
   * A subscription whose stop() aborts its loop, stops its pull and waits for the loop to
   * end. After a reconnect its pull is stopped too: the loop then opens a new one from
   * where it was.
   */
  private track(abort: AbortController, stopMessages: () => void, loop: Promise<void>, state: () => SubscriptionState): Subscription {
    const subscription: Subscription = {
      // Nothing is followed while the connection is down, whatever the pull last said.
      state: () => (this.isConnected() ? state() : 'recovering'),
      stop: async () => {
        if (!abort.signal.aborted) {
          abort.abort();
          stopMessages();
        }
        await loop;
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.set(subscription, () => {
      if (!abort.signal.aborted) stopMessages();
    });
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.closed.abort();
    await Promise.all([...this.subscriptions.keys()].map((s) => s.stop()));
    if (!this.nc.isClosed()) {
      try {
        await this.nc.drain();
      } catch (err) {
        this.logger.warn({ err }, 'NATS drain failed; closing');
        await this.nc.close().catch(() => undefined);
      }
    }
  }
}
