import { streamOfType, type StreamName } from '@sleepweave/bus';
import type { EventEnvelope, IntegrationEventType } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';

/** The envelope of one of the types `T`: `switch (envelope.type)` narrows `envelope.data`. */
export type EnvelopeOf<T extends IntegrationEventType> = T extends IntegrationEventType ? EventEnvelope<T> : never;

/**
 * A consumer of other services' integration events: what it handles, what it writes, and
 * how. The runtime gives it its inbox (each event applied once), its catch-up with the
 * producer's history and its durable bus consumer; the rebuild command and test helper
 * empty its tables and replay that history.
 */
export interface ConsumerDefinition<T extends IntegrationEventType = IntegrationEventType> {
  /** Durable and inbox name: `<consumer>-<source>-<purpose>`, no dots, under 32 characters. */
  name: string;
  /** Integration types, all from one producer (one stream). */
  types: readonly T[];
  /**
   * The read-model tables only this consumer writes: emptied before its history is
   * replayed. Empty when it records events of its own (then its read model is a
   * projection of them, rebuilt from them).
   */
  tables: readonly string[];
  /** Runs in the inbox transaction; a throw rolls both back and the event comes again. */
  handle(tx: Tx, envelope: EnvelopeOf<T>): Promise<void>;
  /**
   * When its events of different keys (her user id) touch different rows only, and two
   * batches could otherwise take rows of the same users in other orders: a batch applies
   * them by key, each key's own in their order (libs/event-store, OrderKey).
   */
  orderKey?(envelope: EnvelopeOf<T>): string;
}

/** Declares a consumer; its handler is typed by the event types it lists. */
export function defineConsumer<T extends IntegrationEventType>(definition: ConsumerDefinition<T>): ConsumerDefinition {
  streamOfConsumer(definition);
  return definition as unknown as ConsumerDefinition;
}

/** The one stream a consumer's types come from (a consumer follows one producer). */
export function streamOfConsumer(definition: Pick<ConsumerDefinition, 'name' | 'types'>): StreamName {
  const streams = new Set(definition.types.map((type) => streamOfType(type)));
  const [stream] = streams;
  if (streams.size !== 1 || !stream) {
    throw new Error(`consumer ${definition.name}: its types must all come from one producer (${definition.types.join(', ')})`);
  }
  return stream;
}
