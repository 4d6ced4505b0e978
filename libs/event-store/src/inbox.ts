import { STREAM_MAX_AGE_MS } from '@sleepweave/bus';
import type { EventEnvelope } from '@sleepweave/contracts';
import { CONSUMER_LOCK_CLASS, hashKey } from './locks.ts';
import type { Sql, Tx } from './types.ts';

export type EnvelopeHandler = (tx: Tx, envelope: EventEnvelope) => Promise<void>;

/** Waits while the consumer's read model is being rebuilt (transaction-scoped). */
async function lockConsumerShared(tx: Tx, consumerName: string): Promise<void> {
  await tx`select pg_advisory_xact_lock_shared(${CONSUMER_LOCK_CLASS}, ${hashKey(consumerName)})`;
}

/** Holds off the consumer's deliveries until the transaction ends (a rebuild). */
export async function lockConsumerExclusive(tx: Tx, consumerName: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(${CONSUMER_LOCK_CLASS}, ${hashKey(consumerName)})`;
}

const afterCommitWork = new WeakMap<object, (() => Promise<void> | void)[]>();

/**
 * Work for after `tx` has committed: a notice to others of what it wrote that must not be
 * stored with it (community's notice of a deleted account's threads: stored, it linked her
 * to them). Run once the transaction of an inbox's events ({@link applyOnce},
 * {@link applyBatchOnce}) has committed, in order, each failure the work's own to report;
 * dropped when it rolls back, and in a transaction of another kind (a rebuild's, a test's).
 */
export function afterCommit(tx: Tx, work: () => Promise<void> | void): void {
  afterCommitWork.get(tx)?.push(work);
}

/** `sql.begin(body)`, then the work `body` asked for after its commit. */
async function beginThenAfterCommit<T>(sql: Sql, body: (tx: Tx) => Promise<T>): Promise<T> {
  const after: (() => Promise<void> | void)[] = [];
  const result = (await sql.begin(async (tx) => {
    afterCommitWork.set(tx, after);
    return body(tx);
  })) as T;
  for (const work of after) {
    try {
      await work();
    } catch {
      // the work reports its own failures; the events are applied and committed
    }
  }
  return result;
}

/**
 * Applies an event at most once per consumer: in one transaction, records the event id in
 * the inbox and, only if it was not there yet, runs the handler. A handler error rolls
 * both back (the event is then redelivered). Returns true when the handler ran.
 */
export async function applyOnce(sql: Sql, consumerName: string, envelope: EventEnvelope, handle: EnvelopeHandler): Promise<boolean> {
  return beginThenAfterCommit(sql, async (tx) => {
    await lockConsumerShared(tx, consumerName);
    const inserted = await tx`
      insert into inbox (consumer, event_id, processed_at)
      values (${consumerName}, ${envelope.id}, now())
      on conflict do nothing
      returning event_id`;
    if (inserted.length === 0) return false;
    await handle(tx, envelope);
    return true;
  });
}

/**
 * Which events of a consumer are independent of each other: those of different keys (her
 * user id). A batch applies them ordered by key, each key's own in their order, so two
 * batches (of two consumers, or two instances) take the rows of several keys in one order
 * instead of waiting for each other in a circle.
 */
export type OrderKey = (envelope: EventEnvelope) => string;

/**
 * Applies several events at most once each, all in one transaction (one commit for a burst
 * or a page of history instead of one per event): records their ids in the inbox and runs
 * the handler, in order (by `orderKey` first, when given), for those not there yet. A
 * handler error rolls all of them back; the caller then applies them one by one
 * ({@link applyOnce}). Returns how many ran.
 */
export async function applyBatchOnce(
  sql: Sql,
  consumerName: string,
  batch: readonly EventEnvelope[],
  handle: EnvelopeHandler,
  orderKey?: OrderKey,
): Promise<number> {
  if (batch.length === 0) return 0;
  const envelopes = orderKey ? inKeyOrder(batch, orderKey) : batch;
  return beginThenAfterCommit(sql, async (tx) => {
    await lockConsumerShared(tx, consumerName);
    const ids = [...new Set(envelopes.map((envelope) => envelope.id))];
    const inserted = await tx<{ event_id: string }[]>`
      insert into inbox (consumer, event_id, processed_at)
      select ${consumerName}, id, now() from unnest(${ids}::uuid[]) as id
      on conflict do nothing
      returning event_id`;
    const fresh = new Set(inserted.map((row) => row.event_id));
    let applied = 0;
    for (const envelope of envelopes) {
      if (!fresh.delete(envelope.id)) continue; // applied before, or earlier in this batch
      await handle(tx, envelope);
      applied += 1;
    }
    return applied;
  });
}

/**
 * How long a consumer remembers an event it applied. A second copy can come from the bus,
 * which keeps a message for STREAM_MAX_AGE_MS (7 days) after storing it: a redelivery, a
 * durable consumer made again from the stream's start, or a copy the relay sent again
 * while retrying a batch (within the 2-minute duplicate window JetStream drops it). Four
 * times the bus's keep covers a relay that retried for weeks. Or from the producer's
 * history, which a consumer reads again from where it last got to (history.ts): what it
 * applied since then is kept however old (pruneInbox).
 */
export const INBOX_KEEP_MS = 4 * STREAM_MAX_AGE_MS;

/**
 * A margin for the clocks of two databases, and for a transaction of the producer that
 * commits after the consumer last read to the end of its history although it began long
 * before: the events it has not read since were applied no earlier than a day before.
 */
export const HISTORY_READ_MARGIN = '1 day';

/**
 * Deletes the inbox rows of events applied before `before`, `batchSize` at a time (each
 * its own statement: the rows found along the `processed_at` index and deleted where they
 * lie; rows another process is deleting are skipped). Keeps those its consumer may read
 * again from its producer's history: applied since a day before it last read that to the
 * end (a consumer down or stuck for weeks reads them again when it is back). Returns how
 * many went. A consumer that has not yet read its history to the end once keeps all of
 * its rows: it reads again from before the first event it could not apply.
 */
export async function pruneInbox(sql: Sql, options: { before: Date; batchSize?: number }): Promise<number> {
  const batchSize = options.batchSize ?? 5_000;
  let deleted = 0;
  // Each batch goes on from where the last ended, past the rows kept (read once a pruning).
  let from = new Date(0);
  for (;;) {
    const rows = await sql<{ processed_at: Date }[]>`
      delete from inbox
      where ctid = any(array(
        select inbox.ctid from inbox
        where inbox.processed_at >= ${from} and inbox.processed_at < ${options.before}
          and not exists (
            select from consumer_catchups caught
            where caught.consumer = inbox.consumer
              and (caught.completed_at is null or inbox.processed_at >= caught.reread_at - ${HISTORY_READ_MARGIN}::interval))
        order by inbox.processed_at
        limit ${batchSize}
        for update of inbox skip locked))
      returning processed_at`;
    deleted += rows.length;
    if (rows.length < batchSize) return deleted;
    from = rows.reduce((latest, row) => (row.processed_at > latest ? row.processed_at : latest), from);
  }
}

/** The events ordered by key, each key's own in the order they came (a stable sort). */
function inKeyOrder(envelopes: readonly EventEnvelope[], orderKey: OrderKey): EventEnvelope[] {
  const keyed = envelopes.map((envelope) => ({ envelope, key: orderKey(envelope) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => entry.envelope);
}
