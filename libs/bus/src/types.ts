import type { EventEnvelope } from '@sleepweave/contracts';

/** One JetStream stream per producing context (docs/architecture.md, Naming). */
export const STREAMS = {
  IDENTITY: 'identity',
  STUDY: 'study',
  JOURNAL: 'journal',
  COMMUNITY: 'community',
  LIBRARY: 'library',
  RESEARCH: 'research',
} as const;
export type StreamName = keyof typeof STREAMS;

export interface ConsumeOptions {
  stream: StreamName;
  /** `<consumer>-<source>-<purpose>`, no dots, under 32 characters. */
  durable: string;
  /** Wire types (unprefixed), e.g. `identity.user.registered`. */
  types: string[];
  handler: (envelope: EventEnvelope) => Promise<void>;
  /**
   * Applies events that arrived together all at once, or none of them (e.g. in one
   * transaction): acked after it returns; when it throws, each event goes through `handler`
   * on its own. Without it, every event goes through `handler`.
   */
  handleBatch?: (envelopes: EventEnvelope[]) => Promise<void>;
  /** Deliveries an event may fail before the subscription reports `stuck` (default {@link STUCK_AFTER_DELIVERIES}). */
  stuckAfterDeliveries?: number;
}

/**
 * A failing event is retried for ever (never dropped), 0.25 s doubling to 30 s apart. After
 * this many failed deliveries (some 30 s) its subscription reports `stuck`, and the
 * service's /health says so, until it is applied: a handler's bug, or an event whose
 * prerequisite never came (RetryLater), is then seen, not only logged.
 */
export const STUCK_AFTER_DELIVERIES = 8;

export interface WatchOptions {
  stream: StreamName;
  types: string[];
  /** Deliver events published at or after this time (ordered, ephemeral consumer). */
  since: Date;
  handler: (envelope: EventEnvelope) => void | Promise<void>;
}

/**
 * `following`: events arrive; `recovering`: the connection or the consumer is being
 * re-established; `stuck`: events arrive, but one has failed STUCK_AFTER_DELIVERIES times
 * and not been applied since (it is still retried); `catching_up`: a watch going through
 * what was stored before it was opened.
 */
export type SubscriptionState = 'following' | 'recovering' | 'stuck' | 'catching_up';

export interface Subscription {
  state(): SubscriptionState;
  stop(): Promise<void>;
}

/** A watch: a subscription that also says when it has handled what was already stored. */
export interface Watch extends Subscription {
  /**
   * Resolves once every matching event stored since `since`, up to when the watch was
   * opened, has been through the handler (at once when there was none).
   */
  readonly caughtUp: Promise<void>;
}

/** The narrow bus interface every service uses; NATS JetStream is behind it. */
export interface Bus {
  /** Deployment/test prefix ('' in production). */
  readonly prefix: string;
  ensureStreams(names: readonly StreamName[]): Promise<void>;
  /**
   * Publishes with msgID = envelope.id (JetStream de-duplicates a re-publish). Publishes
   * made one after another without waiting (the relay's batch) are stored in that order.
   */
  publish(envelope: EventEnvelope): Promise<void>;
  /** Durable pull consumer, explicit ack; a throwing handler gets the message redelivered later. */
  consume(options: ConsumeOptions): Promise<Subscription>;
  /** Ordered, ephemeral consumer: every process gets every matching event (e.g. gateway fan-out). */
  watch(options: WatchOptions): Promise<Watch>;
  /** True while the connection is up. */
  isConnected(): boolean;
  /** Calls the listener whenever the connection is back after a loss; returns how to stop. */
  onReconnect(listener: () => void): () => void;
  /** Stops consumers, drains and closes the connection. */
  close(): Promise<void>;
}

/**
 * Thrown by a consumer's handler that cannot apply an event yet because it depends on
 * another (from another stream) that has not arrived, e.g. a consent of a user whose
 * registration is still on its way: the event is redelivered after a delay, like any
 * failure, but this is expected and logged as such, not as an error.
 */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';
}
