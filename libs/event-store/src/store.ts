import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { ConcurrencyError } from './errors.ts';
import { STREAM_LOCK_CLASS, hashKey } from './locks.ts';
import type { Decider, DomainEvent, EventMetadata, ExpectedVersion, Projection, Recorded, RecordedEvent, Sql, Tx } from './types.ts';

/** Anything that runs a query: the pool, a transaction, a reserved connection. */
export type Queryable = postgres.ISql;

export const DEFAULT_NOTIFY_CHANNEL = 'sw_events';

export interface EventStoreOptions {
  /** Inline projections, applied in the append transaction. */
  projections?: Projection[];
  /** NOTIFY channel that wakes the relay (default `sw_events`). */
  notifyChannel?: string;
}

export interface AppendOptions {
  expectedVersion: ExpectedVersion;
  metadata?: EventMetadata;
  /** created_at of the events (default: the transaction's now()). */
  now?: Date;
  /** Append inside this transaction instead of a new one. */
  tx?: Tx;
}

export interface AppendResult<E extends DomainEvent = DomainEvent> {
  /** The stream's version after the append. */
  version: number;
  events: Recorded<E>[];
}

export interface ReadStreamResult<E extends DomainEvent = DomainEvent> {
  events: Recorded<E>[];
  /** 0: no stream. */
  version: number;
}

export interface HandleOptions {
  metadata?: EventMetadata;
  /**
   * Default: the version read ('no_stream' when the stream does not exist). 'no_stream'
   * given: the caller has just named the stream (a fresh id), so it is not read; the
   * decider decides on its initial state.
   */
  expectedVersion?: ExpectedVersion;
  now?: Date;
  tx?: Tx;
}

export interface HandleResult<S, E extends DomainEvent> {
  /** The new events as recorded (empty when the decider decided nothing). */
  events: Recorded<E>[];
  /** State after evolving the new events. */
  state: S;
  version: number;
}

export interface EventStore {
  appendToStream<E extends DomainEvent>(streamId: string, events: E[], options: AppendOptions): Promise<AppendResult<E>>;
  readStream<E extends DomainEvent = DomainEvent>(streamId: string, tx?: Tx): Promise<ReadStreamResult<E>>;
  /** Read, fold, decide, append: one command against one aggregate, in one transaction. */
  handle<C, S, E extends DomainEvent>(
    streamId: string,
    decider: Decider<C, S, E>,
    command: C,
    options?: HandleOptions,
  ): Promise<HandleResult<S, E>>;
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Hard delete; returns the number of events removed. Each stream's lock is taken first
   * (an append in flight to it lands before, never after), except with `settled`: streams
   * no command writes to any more (a revoked session), whose locks would only take slots
   * of PostgreSQL's lock table, which the whole server shares.
   */
  deleteStreams(streamIds: string[], tx?: Tx, options?: { settled?: boolean }): Promise<number>;
  /** Hard delete of every stream whose id starts with `prefix`; returns the number of events removed. */
  deleteStreamsByPrefix(prefix: string, tx?: Tx): Promise<number>;
  /**
   * Every stream whose id starts with `prefix` renamed to start with `newPrefix` instead (the
   * rest of each id kept), `data` merged into the data of each of its events: what stays of
   * streams named after a deleted user (an admin's acts on her account, her id cleared from
   * them). Returns the number of events changed.
   */
  renameStreamsByPrefix(prefix: string, newPrefix: string, options: { data: Record<string, unknown>; tx?: Tx }): Promise<number>;
  /**
   * A deleted user's id taken from the metadata of the events that name her as who caused
   * them (events of streams not hers: a thread she created, an admin's change to someone
   * else's account), by `events_metadata_user_idx`; returns the number of events changed.
   */
  eraseUserFromMetadata(userId: string, tx?: Tx): Promise<number>;
}

/** A row of `events` as selected with EVENT_COLUMNS. */
export interface EventRow {
  id: string;
  stream_id: string;
  stream_position: number;
  global_position: string;
  transaction_id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata | null;
  created_at: Date;
}

/** Columns selected for a RecordedEvent (positions as decimal strings). */
export const EVENT_COLUMNS =
  'id, stream_id, stream_position, global_position::text as global_position, transaction_id::text as transaction_id, type, data, metadata, created_at';

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamId: row.stream_id,
    streamPosition: row.stream_position,
    globalPosition: row.global_position,
    transactionId: row.transaction_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata ?? {},
    createdAt: row.created_at,
  };
}

function checkExpectedVersion(streamId: string, expected: ExpectedVersion, actual: number): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && actual === 0) ||
    (expected === 'exists' && actual > 0) ||
    (typeof expected === 'number' && actual === expected);
  if (!ok) throw new ConcurrencyError(streamId, expected, actual);
}

function isStreamPositionConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint_name?: string } | null;
  return e?.code === '23505' && e.constraint_name === 'events_stream_position_unique';
}

/** postgres.js takes JSON parameters as JSONValue; domain payloads are plain JSON objects. */
function json(q: Queryable, value: unknown): postgres.Parameter {
  return q.json(value as postgres.JSONValue);
}

export async function readStreamWith<E extends DomainEvent = DomainEvent>(q: Queryable, streamId: string): Promise<ReadStreamResult<E>> {
  const rows = await q<EventRow[]>`
    select ${q.unsafe(EVENT_COLUMNS)} from events
    where stream_id = ${streamId}
    order by stream_position`;
  const events = rows.map(toRecordedEvent) as Recorded<E>[];
  return { events, version: events.at(-1)?.streamPosition ?? 0 };
}

/**
 * The events of `types` in a stream, and the stream's version (its last position, of any
 * type): two index lookups, however long the stream is.
 */
export async function readStreamTypesWith<E extends DomainEvent = DomainEvent>(
  q: Queryable,
  streamId: string,
  types: readonly string[],
): Promise<ReadStreamResult<E>> {
  // Sent together (pipelined on a transaction's connection): one round trip.
  const [rows, [last]] = await Promise.all([
    q<EventRow[]>`
      select ${q.unsafe(EVENT_COLUMNS)} from events
      where stream_id = ${streamId} and type in ${q(types as string[])}
      order by stream_position`,
    q<{ version: number }[]>`
      select stream_position as version from events where stream_id = ${streamId} order by stream_position desc limit 1`,
  ]);
  return { events: rows.map(toRecordedEvent) as Recorded<E>[], version: last?.version ?? 0 };
}

/** Events a tail read takes from the end of a stream (Decider.tailCovers). */
export const TAIL_READ = 32;

/**
 * A stream's first event and its end, back as far as `covers` needs: its last TAIL_READ
 * events (one round trip with the first, two index lookups), then, while `covers` says the
 * state may depend on older ones, four times as many again before them each time, up to the
 * second event. The cost follows the events `covers` needs (a session renewed every second
 * needs its last two minutes' worth), not the stream's length. The version is the stream's
 * last position.
 */
export async function readStreamTailWith<E extends DomainEvent = DomainEvent>(
  q: Queryable,
  streamId: string,
  covers: (oldest: Recorded<E>, newest: Recorded<E>) => boolean,
): Promise<ReadStreamResult<E>> {
  const [firstRows, lastRows] = await Promise.all([
    q<EventRow[]>`select ${q.unsafe(EVENT_COLUMNS)} from events where stream_id = ${streamId} and stream_position = 1`,
    q<EventRow[]>`
      select ${q.unsafe(EVENT_COLUMNS)} from events where stream_id = ${streamId}
      order by stream_position desc limit ${TAIL_READ}`,
  ]);
  let tail = (lastRows.map(toRecordedEvent) as Recorded<E>[]).reverse();
  const newest = tail.at(-1);
  if (!newest) return { events: [], version: 0 };
  // back until the tail reaches the second event, or its oldest is old enough
  for (let page = TAIL_READ * 4; tail[0]!.streamPosition > 2 && !covers(tail[0]!, newest); page *= 4) {
    const before = await q<EventRow[]>`
      select ${q.unsafe(EVENT_COLUMNS)} from events
      where stream_id = ${streamId} and stream_position > 1 and stream_position < ${tail[0]!.streamPosition}
      order by stream_position desc limit ${page}`;
    if (before.length === 0) break;
    tail = [...(before.map(toRecordedEvent) as Recorded<E>[]).reverse(), ...tail];
  }
  const first = tail[0]!.streamPosition === 1 ? [] : (firstRows.map(toRecordedEvent) as Recorded<E>[]);
  return { events: [...first, ...tail], version: newest.streamPosition };
}

/**
 * The per-stream transaction lock that serialises appends (and commands) on one stream.
 * A command takes it itself (it is taken again by the append, which is allowed) when what
 * it writes must be stamped once the stream's turn has come: stamps then follow the order
 * of the commits, which consumers that keep the newest by its stamp rely on.
 */
export async function lockStream(tx: Tx, streamId: string): Promise<void> {
  if (withoutStreamLocks.has(tx)) return;
  await tx`select pg_advisory_xact_lock(${STREAM_LOCK_CLASS}, ${hashKey(streamId)})`;
}

/** Transactions whose stream locks are left out ({@link skipStreamLocks}). */
const withoutStreamLocks = new WeakSet<Tx>();

/**
 * Leaves out the stream locks of a transaction that touches any number of streams and needs
 * no turns: a consumer's rebuild, which replays a producer's whole history in one
 * transaction. A lock a stream would take a slot of PostgreSQL's lock table, which the
 * whole server shares (64 a connection by default): some 6,000 users filled it, failing the
 * rebuild and, meanwhile, other databases' transactions. Its handlers need no turns: what
 * they record is recorded already (a consent's event, found and not added again), and the
 * streams they delete are of users deleted before, which no command can write to. Were one
 * to append to a stream a live command appends to at that moment, the stream's unique
 * positions still refuse the second (the rebuild then fails, and is run again). Holding the
 * events table against other writers instead would make the rebuild and live commands,
 * which lock her directory row before they append, wait for each other in a circle.
 */
export function skipStreamLocks(tx: Tx): void {
  withoutStreamLocks.add(tx);
}

/**
 * The condition "the stream's id starts with `prefix`", as a range of the ids from the prefix
 * up to the next one in byte order (events_stream_prefix_idx), then checked exactly.
 */
function streamsUnder(q: Queryable, prefix: string) {
  if (prefix === '') throw new Error('a prefix of stream ids must not be empty');
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last >= 0x7f) throw new Error(`a prefix of stream ids not ending in ASCII: ${prefix}`);
  const end = prefix.slice(0, -1) + String.fromCharCode(last + 1);
  return q`stream_id ~>=~ ${prefix} and stream_id ~<~ ${end} and starts_with(stream_id, ${prefix})`;
}

export function createEventStore(sql: Sql, options: EventStoreOptions = {}): EventStore {
  const projections = options.projections ?? [];
  const channel = options.notifyChannel ?? DEFAULT_NOTIFY_CHANNEL;

  const transaction = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => sql.begin(fn) as Promise<T>;
  const inTransaction = <T>(tx: Tx | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> => (tx ? fn(tx) : transaction(fn));

  /**
   * `known`: the stream's version is known without reading it. Lock `held`: the caller
   * (handle) holds the stream's lock in this transaction and read its version after taking
   * it, so neither is done again. Lock `with-inserts`: the caller has just named the stream
   * (handle with 'no_stream'), so it is at 0, and its lock is taken in the inserts' round
   * trip, ahead of them (an existing stream fails their unique position).
   */
  async function append<E extends DomainEvent>(
    tx: Tx,
    streamId: string,
    events: E[],
    options: AppendOptions,
    known?: { version: number; lock: 'held' | 'with-inserts' },
  ): Promise<AppendResult<E>> {
    // Appends to one stream are serialised, so the version check below sees the latest
    // committed version and 'any' never trips over a concurrent append. The unique
    // (stream_id, stream_position) constraint stays the last line of defence.
    let version: number;
    if (known) version = known.version;
    else {
      // One round trip: the backend reads the version once it holds the lock.
      const [, [current]] = await Promise.all([
        lockStream(tx, streamId),
        tx<{ version: number }[]>`
          select coalesce(max(stream_position), 0)::int as version from events where stream_id = ${streamId}`,
      ]);
      version = current?.version ?? 0;
    }
    checkExpectedVersion(streamId, options.expectedVersion, version);
    if (events.length === 0) return { version, events: [] };

    const metadata: EventMetadata = options.metadata ?? {};
    let recorded: RecordedEvent[];
    try {
      // The inserts and the NOTIFY (delivered on commit: it wakes the relay) go out together,
      // one round trip; the backend runs them in this order.
      const inserts = events.map(
        (event, i) => tx<EventRow[]>`
          insert into events (id, stream_id, stream_position, type, data, metadata, created_at)
          values (
            ${randomUUID()}, ${streamId}, ${version + i + 1}, ${event.type},
            ${json(tx, event.data)}, ${json(tx, metadata)},
            coalesce(${options.now ?? null}::timestamptz, now())
          )
          returning ${tx.unsafe(EVENT_COLUMNS)}`,
      );
      const lock = known?.lock === 'with-inserts' ? [lockStream(tx, streamId)] : [];
      const rows = (await Promise.all([...lock, tx`select pg_notify(${channel}, '')`, ...inserts])).slice(lock.length + 1) as EventRow[][];
      // The recorded event carries the data as stored (JSON round trip), exactly what a
      // replay or a projection rebuild will see later.
      recorded = rows.map(([row]) => toRecordedEvent(row as EventRow));
    } catch (err) {
      if (isStreamPositionConflict(err)) throw new ConcurrencyError(streamId, options.expectedVersion, null);
      throw err;
    }

    for (const event of recorded) {
      for (const projection of projections) {
        if (projection.handles.includes(event.type)) await projection.apply(tx, event);
      }
    }
    return { version: version + events.length, events: recorded as Recorded<E>[] };
  }

  const store: EventStore = {
    appendToStream(streamId, events, options) {
      return inTransaction(options.tx, (tx) => append(tx, streamId, events, options));
    },

    readStream(streamId, tx) {
      return readStreamWith(tx ?? sql, streamId);
    },

    handle(streamId, decider, command, options = {}) {
      type E = Parameters<typeof decider.evolve>[1];
      return inTransaction(options.tx, async (tx) => {
        // Commands on one stream take turns (the same lock append takes): each decides on
        // the latest state, so two at once never conflict; only an explicit
        // expectedVersion from the caller can.
        // A stream the caller has just named ('no_stream': a new entry's id) is not read: the
        // decider decides on the initial state, and the append takes the lock with its
        // inserts (one round trip less); were the stream there after all, the inserts'
        // unique position refuses them, the ConcurrencyError the version check gives.
        // Otherwise the lock and the read go out together (one round trip): the backend
        // reads once it holds the lock.
        const fresh = options.expectedVersion === 'no_stream';
        const read: ReadStreamResult<E> = fresh
          ? { events: [], version: 0 }
          : (
              await Promise.all([
                lockStream(tx, streamId),
                decider.evolvesOn
                  ? readStreamTypesWith<E>(tx, streamId, decider.evolvesOn)
                  : decider.tailCovers
                    ? readStreamTailWith<E>(tx, streamId, decider.tailCovers as (oldest: Recorded<E>, newest: Recorded<E>) => boolean)
                    : readStreamWith<E>(tx, streamId),
              ])
            )[1];
        let state = read.events.reduce((s, e) => decider.evolve(s, e as unknown as E), decider.initialState());
        const decided = decider.decide(command, state);
        if (decided.length === 0) return { events: [], state, version: read.version };
        const appended = await append(
          tx,
          streamId,
          decided,
          {
            expectedVersion: options.expectedVersion ?? (read.version === 0 ? 'no_stream' : read.version),
            metadata: options.metadata,
            now: options.now,
            tx,
          },
          { version: read.version, lock: fresh ? 'with-inserts' : 'held' },
        );
        for (const e of appended.events) state = decider.evolve(state, e as unknown as E);
        return { events: appended.events, state, version: appended.version };
      });
    },

    transaction,

    // Deleting events breaks the append-only rule on purpose: when a user is deleted,
    // privacy wins over immutability and nothing of hers may survive (docs/architecture.md).
    async deleteStreams(streamIds, tx, options = {}) {
      if (streamIds.length === 0) return 0;
      return inTransaction(tx, async (t) => {
        // wait for appends in flight to these streams, so none lands after the delete
        if (!options.settled) for (const streamId of [...new Set(streamIds)].sort()) await lockStream(t, streamId);
        // one parameter, however many streams (a list is one each, 65,535 at most)
        const result = await t`delete from events where stream_id = any(${streamIds}::text[])`;
        return result.count;
      });
    },

    async deleteStreamsByPrefix(prefix, tx) {
      const q: Queryable = tx ?? sql;
      const result = await q`delete from events where ${streamsUnder(q, prefix)}`;
      return result.count;
    },

    async renameStreamsByPrefix(prefix, newPrefix, { data, tx }) {
      const q: Queryable = tx ?? sql;
      if (!/^[\x20-\x7e]+$/.test(prefix)) throw new Error(`renameStreamsByPrefix needs an ASCII prefix: ${prefix}`);
      // (substr counts characters, length UTF-16 units: the same in ASCII)
      const result = await q`
        update events set stream_id = ${newPrefix} || substr(stream_id, ${prefix.length + 1}), data = data || ${json(q, data)}
        where ${streamsUnder(q, prefix)}`;
      return result.count;
    },

    async eraseUserFromMetadata(userId, tx) {
      const q: Queryable = tx ?? sql;
      const result = await q`update events set metadata = metadata - 'userId' where metadata ->> 'userId' = ${userId}`;
      return result.count;
    },
  };
  return store;
}
