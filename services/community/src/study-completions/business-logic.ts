import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type ParticipantEvent, type ParticipantState } from './participant.ts';

export type RecordStudyParticipation = {
  type: 'RecordStudyParticipation';
  data: { userId: string; studyStartDate: string; now: Date };
};
export type ParticipantCommand = RecordStudyParticipation;

/** The study starts once (as identity keeps it): a later consent event does not move the date. */
export function recordStudyParticipation(command: RecordStudyParticipation, state: ParticipantState): ParticipantEvent[] {
  if (state.status === 'participant') return [];
  const { userId, studyStartDate, now } = command.data;
  return [{ type: 'StudyParticipationRecorded', data: { userId, studyStartDate, recordedAt: now.toISOString() } }];
}

export function decide(command: ParticipantCommand, state: ParticipantState): ParticipantEvent[] {
  switch (command.type) {
    case 'RecordStudyParticipation':
      return recordStudyParticipation(command, state);
    default: {
      const exhaustive: never = command.type;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const participantDecider: Decider<ParticipantCommand, ParticipantState, ParticipantEvent> = {
  decide,
  evolve,
  initialState,
};
