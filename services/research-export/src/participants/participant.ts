import type { DomainEvent } from '@sleepweave/event-store';

/** A study participant as research knows her: a research id of her own, and her consent. */
export const participantStreamId = (userId: string) => `research_participant:${userId}`;

export type ParticipantEnrolled = DomainEvent<
  'ParticipantEnrolled',
  { userId: string; researchId: string; studyStartDate: string; consentVersion: string; consentedAt: string }
>;
export type ParticipantEvent = ParticipantEnrolled;

export type ParticipantState = { status: 'unknown' } | { status: 'enrolled'; researchId: string };

export const initialState = (): ParticipantState => ({ status: 'unknown' });

export function evolve(state: ParticipantState, event: ParticipantEvent): ParticipantState {
  switch (event.type) {
    case 'ParticipantEnrolled':
      return { status: 'enrolled', researchId: event.data.researchId };
    default:
      return state;
  }
}
