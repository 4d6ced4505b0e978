import type { EventEnvelope } from '@sleepweave/contracts';
import type postgres from 'postgres';
import type { Logger } from 'pino';
import { relayHorizon } from './horizon.ts';
import { applyBatchOnce, applyOnce, INBOX_KEEP_MS, lockConsumerExclusive, type EnvelopeHandler, type OrderKey } from './inbox.ts';
import { EVENT_COLUMNS, skipStreamLocks, toRecordedEvent, type EventRow } from './store.ts';
import type { RecordedEvent, Sql, Tx } from './types.ts';

/**
 * A service's integration history: the integration events it published, read again from
 * its own event store (the source of truth), so that a consumer that starts late, lost its
 * database or rebuilds a read model sees everything, not just what the bus still holds
 * (the bus keeps events for days; docs/architecture.md, "Late joiners").
 *
 * The producer reads its events in commit order, the relay's order, through the relay's own
 * mapping (`toIntegration`): a deleted user's streams are gone, so what is replayed of her is
 * only her deletion, and private events stay private.
 */

/** A place in a producer's history, `<transaction id>:<global position>`; `0:0` is the start. */
export type HistoryPosition = string;
export const HISTORY_START: HistoryPosition = '0:0';

const POSITION = /^(\d{1,20}):(\d{1,20})$/;

export function parseHistoryPosition(value: string): { transactionId: string; globalPosition: string } {
  const match = POSITION.exec(value);
  if (!match) throw new Error(`not a history position: '${value}' (expected <transaction id>:<global position>)`);
  return { transactionId: match[1]!, globalPosition: match[2]! };
}

export interface HistoryPage {
  /** The integration events of the page, in commit order (only the types asked for). */
  events: EventEnvelope[];
  /** Where the next page starts (past every stored event the page looked at). */
  next: HistoryPosition;
  /**
   * No committed event lies beyond `next` yet. Events still being committed are the bus's:
   * the relay publishes them once they are, and the consumer follows the bus from here.
   */
  end: boolean;
}

export interface ReadHistoryOptions {
  toIntegration: (event: RecordedEvent) => EventEnvelope | null;
  after: HistoryPosition;
  /** Only these integration types (others are passed over, the position still moves). */
  types: readonly string[];
  /** Stored events looked at per page (default 500). */
  limit?: number;
}

/**
 * One page of the producer's history after `after`, below the relay's horizon: a
 * transaction that commits later with a smaller id cannot fall behind a position handed out.
 */
export async function readIntegrationHistory(sql: Sql, options: ReadHistoryOptions): Promise<HistoryPage> {
  const limit = options.limit ?? 500;
  const from = parseHistoryPosition(options.after);
  const types = new Set(options.types);
  const horizon = await relayHorizon(sql);
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(EVENT_COLUMNS)} from events
    where (events.transaction_id, events.global_position) > (${from.transactionId}::xid8, ${from.globalPosition}::bigint)
      and events.transaction_id < ${horizon}::xid8
    -- qualified: the select list renames both columns to text
    order by events.transaction_id, events.global_position
    limit ${limit}`;
  const events: EventEnvelope[] = [];
  for (const row of rows) {
    const envelope = options.toIntegration(toRecordedEvent(row));
    if (envelope && types.has(envelope.type)) events.push(envelope);
  }
  const last = rows.at(-1);
  return {
    events,
    next: last ? `${last.transaction_id}:${last.global_position}` : options.after,
    end: rows.length < limit,
  };
}

/** Where a consumer reads a producer's history from (an HTTP client in production). */
export interface HistorySource {
  /** The producing service, for logs. */
  readonly name: string;
  /** `signal`: the reader is stopping; a page under way may end at once (it rejects). */
  page(after: HistoryPosition, types: readonly string[], signal?: AbortSignal): Promise<HistoryPage>;
}

/** A producer with no history yet (a test that publishes on the bus itself, a brand-new system). */
export const emptyHistory = (name: string): HistorySource => ({
  name,
  page: async (after) => ({ events: [], next: after, end: true }),
});

export interface CatchUpOptions {
  /** The consumer's name (its inbox and durable name). */
  name: string;
  types: readonly string[];
  handle: EnvelopeHandler;
  source: HistorySource;
  /** Its events of different keys are independent: a page applies them by key (inbox.ts). */
  orderKey?: OrderKey;
  /** Stops it between two pages (the consumer is stopping). */
  signal?: AbortSignal;
}

interface CatchUpRow {
  position: string;
  completed: boolean;
  reread: boolean;
}

/** Whether the consumer has caught up with its producer's history once (it then follows the bus). */
export async function hasCaughtUp(sql: Sql | Tx, name: string): Promise<boolean> {
  return (await checkpointOf(sql, name)) !== 'none';
}

/**
 * `none`: it has not caught up yet; `legacy`: it caught up before consumers read their
 * history again (its checkpoint is where that first catch-up ended, maybe months back);
 * `current`: it has read the history to the end since.
 */
export async function checkpointOf(sql: Sql | Tx, name: string): Promise<'none' | 'legacy' | 'current'> {
  const [row] = await (sql as Sql)<CatchUpRow[]>`
    select position, completed_at is not null as completed, reread_at is not null as reread
    from consumer_catchups where consumer = ${name}`;
  return row?.completed !== true ? 'none' : row.reread ? 'current' : 'legacy';
}

/**
 * Records how far the consumer has read. At the end of the history, `completed_at` (it has
 * caught up once) and `reread_at`: every event it has not read since was committed about
 * then or later, and pruneInbox keeps what it applied of those. A page short of the end
 * leaves both as they were. The position never moves back: two instances reading at once
 * (each from the checkpoint it found), the one behind saves last and keeps where the other
 * got to. But a rebuild's (`force`), which read the whole history in the transaction that
 * holds the consumer's lock: a position beyond the producer's history (its database
 * restored from a backup) would otherwise stay, and every later reading find nothing.
 */
async function savePosition(
  q: postgres.ISql,
  name: string,
  position: HistoryPosition,
  end: boolean,
  { force = false }: { force?: boolean } = {},
): Promise<void> {
  const at = end ? new Date() : null;
  await q`
    insert into consumer_catchups (consumer, position, completed_at, reread_at, updated_at)
    values (${name}, ${position}, ${at}, ${at}, now())
    on conflict (consumer) do update
      set position = case
            when ${force}
              or (split_part(excluded.position, ':', 1)::xid8, split_part(excluded.position, ':', 2)::bigint)
               > (split_part(consumer_catchups.position, ':', 1)::xid8, split_part(consumer_catchups.position, ':', 2)::bigint)
            then excluded.position else consumer_catchups.position end,
          completed_at = coalesce(excluded.completed_at, consumer_catchups.completed_at),
          reread_at = coalesce(excluded.reread_at, consumer_catchups.reread_at),
          updated_at = now()`;
}

/**
 * A checkpoint written before consumers read their history again was left where its first
 * catch-up ended, and the inbox has forgotten what it applied from the bus more than
 * INBOX_KEEP_MS ago: reading on from there, such events are passed over, not applied a
 * second time (a day's margin for the clocks). The bus delivered them.
 */
const FORGOTTEN_BY_THE_INBOX_MS = INBOX_KEEP_MS - 24 * 60 * 60_000;

/** The producer's history could not be read (it is down, or answered with an error): nothing was applied from the page. */
export class HistoryUnreadable extends Error {
  override readonly name = 'HistoryUnreadable';
  constructor(producer: string, cause: unknown) {
    super(`the history of ${producer} could not be read: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * Reads a consumer's producer's history from where it last got to, up to its end, applying
 * each event it has not applied yet (the inbox; a page in one transaction), and records
 * how far it got, so a restart resumes there. The first time, from the start: a consumer
 * with no read model yet. Then again at each start and every few minutes while it follows
 * the bus (consumer.ts): what the bus lost or forgot (kept 7 days: a consumer down or stuck
 * longer, a NATS server that lost its store) comes from here, and what the bus did deliver
 * is found in the inbox and passed over. Returns how many events it applied. Throws
 * HistoryUnreadable when the producer cannot be read, or the handler's error when an event
 * cannot be applied (those before it are); the caller retries.
 */
export async function catchUp(sql: Sql, options: CatchUpOptions, logger: Logger): Promise<number> {
  const { name, types, handle, source, orderKey } = options;
  const [row] = await sql<CatchUpRow[]>`
    select position, completed_at is not null as completed, reread_at is not null as reread
    from consumer_catchups where consumer = ${name}`;
  const first = row?.completed !== true;
  const forgottenBefore = row?.completed && !row.reread ? Date.now() - FORGOTTEN_BY_THE_INBOX_MS : null;
  let position = row?.position ?? HISTORY_START;
  let applied = 0;
  let passedOver = 0;
  if (!row) logger.info({ consumer: name, producer: source.name }, 'catching up with the producer history');
  for (;;) {
    if (options.signal?.aborted) return applied;
    let page: HistoryPage;
    try {
      page = await source.page(position, types, options.signal);
    } catch (err) {
      if (options.signal?.aborted) return applied;
      throw new HistoryUnreadable(source.name, err);
    }
    let events = page.events;
    if (forgottenBefore !== null) {
      events = events.filter((envelope) => !(Date.parse(envelope.time) < forgottenBefore));
      passedOver += page.events.length - events.length;
    }
    try {
      applied += await applyBatchOnce(sql, name, events, handle, orderKey);
    } catch {
      // One of them cannot be applied (yet): those before it are, and its error is thrown.
      for (const envelope of events) {
        if (await applyOnce(sql, name, envelope, handle)) applied += 1;
      }
    }
    position = page.next;
    await savePosition(sql, name, position, page.end);
    if (page.end) break;
  }
  if (first) logger.info({ consumer: name, producer: source.name, applied, position }, 'caught up; following the bus');
  else if (applied > 0 || passedOver > 0)
    // Not delivered by the bus yet (just committed), or lost by it: either way applied once.
    logger.info(
      { consumer: name, producer: source.name, applied, passedOver, position },
      'applied events of the producer history the bus had not delivered',
    );
  return applied;
}

export interface RebuildConsumerOptions extends CatchUpOptions {
  /** The read-model tables the consumer fills: emptied first. */
  tables: readonly string[];
}

/**
 * Rebuilds a read model fed by another service's events: in one transaction that holds the
 * consumer's lock (its bus deliveries wait meanwhile), empties its tables, forgets which
 * events it applied, and replays the producer's whole history, its handlers' stream locks
 * left out (skipStreamLocks). The read model is then
 * exactly what the history gives; bus deliveries that waited find their event applied,
 * or apply it after. Returns the number of events applied.
 */
export async function rebuildConsumer(sql: Sql, options: RebuildConsumerOptions): Promise<number> {
  const { name, types, handle, source, tables } = options;
  return sql.begin(async (tx) => {
    await lockConsumerExclusive(tx, name);
    // Its handlers would lock a stream for each event (a command recording it, a deleted
    // user's streams): none of those turns is needed here (store.ts)
    skipStreamLocks(tx);
    if (tables.length > 0) await tx`truncate table ${tx(tables as string[])}`;
    await tx`delete from inbox where consumer = ${name}`;
    let position: HistoryPosition = HISTORY_START;
    let applied = 0;
    for (;;) {
      const page = await source.page(position, types);
      for (const envelope of page.events) {
        const inserted = await tx`
          insert into inbox (consumer, event_id, processed_at) values (${name}, ${envelope.id}, now())
          on conflict do nothing returning event_id`;
        if (inserted.length === 0) continue;
        await handle(tx, envelope);
        applied += 1;
      }
      position = page.next;
      if (page.end) break;
    }
    await savePosition(tx, name, position, true, { force: true });
    return applied;
  }) as Promise<number>;
}
