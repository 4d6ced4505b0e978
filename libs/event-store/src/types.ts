import type postgres from 'postgres';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

export interface EventMetadata {
  correlationId?: string | null;
  causationId?: string | null;
  userId?: string | null;
}

/** A domain event as a decider emits it: discriminated on `type`, payload under `data`. */
export interface DomainEvent<T extends string = string, D extends object = Record<string, unknown>> {
  type: T;
  data: D;
}

interface RecordedEventBase {
  id: string;
  streamId: string;
  /** 1-based position within the stream. */
  streamPosition: number;
  /** bigint as a decimal string (global order of appends). */
  globalPosition: string;
  /** pg_current_xact_id() of the appending transaction, as a decimal string. */
  transactionId: string;
  metadata: EventMetadata;
  createdAt: Date;
}

/** A stored event; distributive over a union of domain events, so `switch (event.type)` narrows `data`. */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E extends DomainEvent
  ? RecordedEventBase & { type: E['type']; data: E['data'] }
  : never;

/** Alias of RecordedEvent (already distributive over a union of domain events). */
export type Recorded<E extends DomainEvent> = RecordedEvent<E>;

/** `no_stream`: must not exist; `exists`: must exist; a number: the stream's current version. */
export type ExpectedVersion = 'no_stream' | 'exists' | 'any' | number;

export interface Decider<Command, State, Event extends DomainEvent> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
  /**
   * The event types `evolve` reads, when it ignores the others. `handle` then loads only
   * these (through the `(stream_id, type, stream_position)` index), so a command's cost
   * does not grow with the events its state does not depend on (e.g. a member's messages
   * in her membership stream). Omitted: the whole stream is folded.
   */
  evolvesOn?: readonly Event['type'][];
  /**
   * For a stream that keeps growing while its state depends only on its first event and
   * its latest ones (a session renewed every 15 minutes for 30 days: its current token and
   * those retired in the minutes before). `handle` then reads the first event and the
   * stream's last TAIL_READ events, and further back in growing pages while
   * `tailCovers(oldest read, newest)` says older ones may still change the state. So a
   * command's cost follows what its state needs, not the stream's length.
   */
  tailCovers?: (oldest: Recorded<Event>, newest: Recorded<Event>) => boolean;
}

/** A read model updated inside the append transaction; rebuildable from the events. */
export interface Projection {
  name: string;
  /** Tables this projection owns: truncated before a rebuild. */
  tables: string[];
  /** Event types it handles. */
  handles: string[];
  /** `replay`: during a rebuild, the state its `replay.start` made (else undefined). */
  apply(tx: Tx, event: RecordedEvent, replay?: unknown): Promise<void>;
  replay?: ProjectionReplay<unknown>;
}

/**
 * A rebuild replays every event in one transaction, where a row updated at every event gets
 * slower at each update (PostgreSQL walks every version the transaction made of it: the
 * rebuild's time grows with the square of that row's events). A projection with such rows
 * (a count, a latest) keeps their figures in memory during a rebuild instead: `start` makes
 * the state `apply` is given, and `end` writes it, in the rebuild's transaction, at its end.
 */
export interface ProjectionReplay<R> {
  start(): R;
  end(tx: Tx, state: R): Promise<void>;
}

/** Types a projection by the events it handles; the store only calls it for those types. */
export function defineProjection<E extends DomainEvent, R = never>(projection: {
  name: string;
  tables: string[];
  handles: E['type'][];
  /**
   * `event` is a discriminated union: `switch (event.type)` narrows `event.data`. `replay`:
   * a rebuild's state (with `replay`), undefined for an append.
   */
  apply(tx: Tx, event: Recorded<E>, replay?: R): Promise<void>;
  replay?: ProjectionReplay<R>;
}): Projection {
  return projection as unknown as Projection;
}
