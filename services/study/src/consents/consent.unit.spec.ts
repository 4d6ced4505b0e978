import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, it } from 'vitest';
import { consentDecider, type GiveConsent } from './business-logic.ts';
import type { ConsentEvent } from './consent.ts';

const userId = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const consentId = 'b5d0e0a4-8f0e-4c3c-9d6e-2f8a1c0d9e77';

function giveConsent(now: Date, timezone: GiveConsent['data']['timezone'] = 'Europe/London'): GiveConsent {
  return {
    type: 'GiveConsent',
    data: {
      consentId,
      userId,
      consentText: 'Sleep Study Consent (version 1.0) ...',
      consentVersion: '1.0',
      ipAddress: '203.0.113.7',
      timezone,
      now,
    },
  };
}

function consentGiven(now: Date, studyStartDate: string, timezone: GiveConsent['data']['timezone'] = 'Europe/London'): ConsentEvent {
  return {
    type: 'ConsentGiven',
    data: {
      consentId,
      userId,
      consentText: 'Sleep Study Consent (version 1.0) ...',
      consentVersion: '1.0',
      acceptedAt: now.toISOString(),
      ipAddress: '203.0.113.7',
      timezone,
      studyStartDate,
    },
  };
}

const spec = deciderSpec(consentDecider);

describe('consent decider', () => {
  it('records consent with text, version, time and IP, and starts the study that day', () => {
    const now = new Date('2026-05-04T09:15:00.000Z');
    spec
      .given([])
      .when(giveConsent(now))
      .then([consentGiven(now, '2026-05-04')]);
  });

  it('takes the start date in her timezone, not the server’s', () => {
    // 02:30 UTC on 5 May is still the evening of 4 May in New York, already 5 May in Paris.
    const now = new Date('2026-05-05T02:30:00.000Z');
    spec
      .given([])
      .when(giveConsent(now, 'America/New_York'))
      .then([consentGiven(now, '2026-05-04', 'America/New_York')]);
    spec
      .given([])
      .when(giveConsent(now, 'Europe/Paris'))
      .then([consentGiven(now, '2026-05-05', 'Europe/Paris')]);
  });

  it('records consent once: a second consent decides nothing and the start date stays', () => {
    const first = new Date('2026-05-04T09:15:00.000Z');
    const later = new Date('2026-05-20T09:15:00.000Z');
    const state = spec
      .given([consentGiven(first, '2026-05-04')])
      .when(giveConsent(later))
      .then([]);
    if (state.status !== 'given' || state.studyStartDate !== '2026-05-04') throw new Error('the start date moved');
  });
});
