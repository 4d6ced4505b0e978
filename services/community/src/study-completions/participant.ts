import type { DomainEvent } from '@sleepweave/event-store';

/** What community knows of a study participant: when her 42 days started (from study's consent). */
export const participantStreamId = (userId: string) => `study_participant:${userId}`;

export type StudyParticipationRecorded = DomainEvent<
  'StudyParticipationRecorded',
  { userId: string; studyStartDate: string; recordedAt: string }
>;
export type ParticipantEvent = StudyParticipationRecorded;

export type ParticipantState = { status: 'unknown' } | { status: 'participant'; studyStartDate: string };

export const initialState = (): ParticipantState => ({ status: 'unknown' });

export function evolve(state: ParticipantState, event: ParticipantEvent): ParticipantState {
  switch (event.type) {
    case 'StudyParticipationRecorded':
      return { status: 'participant', studyStartDate: event.data.studyStartDate };
    default:
      return state;
  }
}
