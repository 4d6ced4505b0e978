import { calendarDateIn, type Timezone } from '@sleepweave/contracts';
import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type ConsentEvent, type ConsentState } from './consent.ts';

export type GiveConsent = {
  type: 'GiveConsent';
  data: {
    consentId: string;
    userId: string;
    consentText: string;
    consentVersion: string;
    ipAddress: string | null;
    timezone: Timezone;
    now: Date;
  };
};
export type ConsentCommand = GiveConsent;

/**
 * Consent is recorded once and starts the study on the day of consent in her timezone.
 * A second consent decides nothing: the start date never moves.
 */
export function giveConsent(command: GiveConsent, state: ConsentState): ConsentEvent[] {
  if (state.status === 'given') return [];
  const { now, ...data } = command.data;
  return [
    {
      type: 'ConsentGiven',
      data: { ...data, acceptedAt: now.toISOString(), studyStartDate: calendarDateIn(data.timezone, now) },
    },
  ];
}

export function decide(command: ConsentCommand, state: ConsentState): ConsentEvent[] {
  switch (command.type) {
    case 'GiveConsent':
      return giveConsent(command, state);
    default: {
      const exhaustive: never = command.type;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const consentDecider: Decider<ConsentCommand, ConsentState, ConsentEvent> = { decide, evolve, initialState };
