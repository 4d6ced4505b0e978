import type { Bus, StreamName, Subscription } from '@sleepweave/bus';
import type { EventEnvelope } from '@sleepweave/contracts';
import type { Logger } from 'pino';
import type { Sql, Tx } from './types.ts';

export type EnvelopeHandler = (tx: Tx, envelope: EventEnvelope) => Promise<void>;

export interface ConsumerOptions {
  sql: Sql;
  bus: Pick<Bus, 'consume'>;
  /** Durable consumer name and inbox consumer name: `<consumer>-<source>-<purpose>`. */
  name: string;
  stream: StreamName;
  types: string[];
  handle: EnvelopeHandler;
  logger: Logger;
}

/**
 * Applies an event at most once per consumer: in one transaction, records the event id in
 * the inbox and, only if it was not there yet, runs the handler. A handler error rolls
 * both back (the event is then redelivered). Returns true when the handler ran.
 */
export async function applyOnce(sql: Sql, consumerName: string, envelope: EventEnvelope, handle: EnvelopeHandler): Promise<boolean> {
  return sql.begin(async (tx) => {
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

/** A durable bus consumer whose handler updates the read model exactly once per event. */
export function startConsumer(options: ConsumerOptions): Promise<Subscription> {
  const { sql, bus, name, stream, types, handle } = options;
  const log = options.logger.child({ component: 'consumer', consumer: name });
  return bus.consume({
    stream,
    durable: name,
    types,
    handler: async (envelope) => {
      const applied = await applyOnce(sql, name, envelope, handle);
      if (!applied) log.debug({ eventId: envelope.id, type: envelope.type }, 'duplicate event ignored');
    },
  });
}
