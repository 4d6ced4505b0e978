import { z } from 'zod';
import { CalendarDate, Role, Uuid } from './common.ts';
import { HormonalStage, Timezone } from './profile.ts';

/**
 * Integration events: the only definition of what crosses the bus.
 * Wire type = NATS subject (without the deployment prefix) = `<context>.<aggregate>.<past_tense>`.
 */
export const integrationEvents = {
  'identity.user.registered': z.object({
    userId: Uuid,
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    dateOfBirth: z.string().nullable(),
    timezone: Timezone,
    hormonalStage: HormonalStage.nullable(),
    role: Role,
    registeredAt: z.string(),
  }),
  'identity.user.role_granted': z.object({
    userId: Uuid,
    role: Role,
    grantedAt: z.string(),
  }),
  'identity.session.revoked': z.object({
    sessionId: Uuid,
    userId: Uuid,
    reason: z.enum(['logout', 'password_reset', 'password_changed', 'account_deleted', 'admin']),
    revokedAt: z.string(),
  }),
  /** The study starts on the day of consent, in the participant's timezone. */
  'study.consent.given': z.object({
    userId: Uuid,
    consentVersion: z.string(),
    acceptedAt: z.string(),
    studyStartDate: CalendarDate,
  }),
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
export type EventEnvelope<T extends IntegrationEventType = IntegrationEventType> = Omit<
  z.infer<typeof EventEnvelope>,
  'type' | 'data'
> & { type: T; data: IntegrationEventData<T> };

/** Parses an envelope and its data against the registry; throws a ZodError when either is malformed. */
export function parseEnvelope(raw: unknown): EventEnvelope {
  const envelope = EventEnvelope.parse(raw);
  const schema = integrationEvents[envelope.type as IntegrationEventType];
  if (!schema) return envelope as EventEnvelope;
  return { ...envelope, data: schema.parse(envelope.data) } as EventEnvelope;
}

export function isEventOfType<T extends IntegrationEventType>(
  envelope: EventEnvelope,
  type: T,
): envelope is EventEnvelope<T> {
  return envelope.type === type;
}
