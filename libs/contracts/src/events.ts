import { z } from 'zod';
import { Uuid } from './common.ts';
import { identityEvents } from './identity-events.ts';
import { studyEvents } from './study-events.ts';
import { communityEvents } from './community-events.ts';
import { journalEvents } from './journal-events.ts';
import { libraryEvents } from './library-events.ts';

/**
 * Integration events: the only definition of what crosses the bus, one file per producing
 * context (`<context>-events.ts`), merged here.
 * Wire type = NATS subject (without the deployment prefix) = `<context>.<aggregate>.<past_tense>`.
 */
export const integrationEvents = {
  ...identityEvents,
  ...studyEvents,
  ...communityEvents,
  ...journalEvents,
  ...libraryEvents,
} as const;

export type IntegrationEventType = keyof typeof integrationEvents;
export type IntegrationEventData<T extends IntegrationEventType> = z.infer<(typeof integrationEvents)[T]>;

/** The envelope every integration event travels in. */
export const EventEnvelope = z.object({
  id: Uuid,
  type: z.string(),
  version: z.number().int().positive(),
  source: z.string(),
  subject: z.string(),
  time: z.string(),
  correlationId: z.string().nullable(),
  causationId: z.string().nullable(),
  data: z.unknown(),
});
export type EventEnvelope<T extends IntegrationEventType = IntegrationEventType> = Omit<z.infer<typeof EventEnvelope>, 'type' | 'data'> & {
  type: T;
  data: IntegrationEventData<T>;
};

/** Parses an envelope and its data against the registry; throws a ZodError when either is malformed. */
export function parseEnvelope(raw: unknown): EventEnvelope {
  const envelope = EventEnvelope.parse(raw);
  const schema = integrationEvents[envelope.type as IntegrationEventType];
  if (!schema) return envelope as EventEnvelope;
  return { ...envelope, data: schema.parse(envelope.data) } as EventEnvelope;
}

export function isEventOfType<T extends IntegrationEventType>(envelope: EventEnvelope, type: T): envelope is EventEnvelope<T> {
  return envelope.type === type;
}
