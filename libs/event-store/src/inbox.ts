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

/**
 * Applies an event at most once per consumer: in one transaction, records the event id in
 * the inbox and, only if it was not there yet, runs the handler. A handler error rolls
 * both back (the event is then redelivered). Returns true when the handler ran.
 */
export async function applyOnce(sql: Sql, consumerName: string, envelope: EventEnvelope, handle: EnvelopeHandler): Promise<boolean> {
  return sql.begin(async (tx) => {
    await lockConsumerShared(tx, consumerName);
    const inserted = await tx`
      insert into inbox (consumer, event_id, processed_at)
      values (${consumerName}, ${envelope.id}, now())
      on conflict do nothing
      returning event_id`;
    if (inserted.length === 0) return false;
    await handle(tx, envelope);
    return true;
  }) as Promise<boolean>;
}
