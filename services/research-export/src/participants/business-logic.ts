import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type ParticipantEvent, type ParticipantState } from './participant.ts';

export type Enroll = {
  type: 'Enroll';
  /** `researchId` is drawn by the caller (randomResearchId): the decider stays pure. */
  data: { userId: string; researchId: string; studyStartDate: string; consentVersion: string; consentedAt: string };
};
export type ParticipantCommand = Enroll;

/** Her consent enrols her once, under the research id drawn then; a later consent changes nothing. */
export function enroll(command: Enroll, state: ParticipantState): ParticipantEvent[] {
  if (state.status === 'enrolled') return [];
  return [{ type: 'ParticipantEnrolled', data: { ...command.data } }];
}

export function decide(command: ParticipantCommand, state: ParticipantState): ParticipantEvent[] {
  switch (command.type) {
    case 'Enroll':
      return enroll(command, state);
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
