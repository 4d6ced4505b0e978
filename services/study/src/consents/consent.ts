import type { Timezone } from '@sleepweave/contracts';
import type { DomainEvent } from '@sleepweave/event-store';

export const consentStreamId = (userId: string) => `consent:${userId}`;

export type ConsentGiven = DomainEvent<
  'ConsentGiven',
  {
    consentId: string;
    userId: string;
    consentText: string;
    consentVersion: string;
    acceptedAt: string;
    ipAddress: string | null;
    /** Her timezone at consent, in which the start date was taken. */
    timezone: Timezone;
    /** Day 1 of her study: the day of consent in her timezone. */
    studyStartDate: string;
  }
>;

export type ConsentEvent = ConsentGiven;

export type ConsentState =
  { status: 'none' } | { status: 'given'; consentId: string; consentVersion: string; acceptedAt: string; studyStartDate: string };

export const initialState = (): ConsentState => ({ status: 'none' });

export function evolve(state: ConsentState, event: ConsentEvent): ConsentState {
  switch (event.type) {
    case 'ConsentGiven': {
      const { consentId, consentVersion, acceptedAt, studyStartDate } = event.data;
      return { status: 'given', consentId, consentVersion, acceptedAt, studyStartDate };
    }
    default:
      return state;
  }
}
