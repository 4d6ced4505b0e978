import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import { participantDecider } from './business-logic.ts';
import type { ParticipantEvent } from './participant.ts';
import { randomResearchId, RESEARCH_ID_PATTERN } from './research-id.ts';

const userId = '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f';
const enrol = (researchId: string, studyStartDate: string) => ({
  type: 'Enroll' as const,
  data: { userId, researchId, studyStartDate, consentVersion: '1.0', consentedAt: '2026-10-01T20:00:00.000Z' },
});
const enrolled: ParticipantEvent = { type: 'ParticipantEnrolled', data: enrol('SW-7K2M9QXD', '2026-10-01').data };

describe('research participant decider', () => {
  it('enrols her once, under the first research id; a later consent changes nothing', () => {
    const spec = deciderSpec(participantDecider);
    spec.given([]).when(enrol('SW-7K2M9QXD', '2026-10-01')).then([enrolled]);
    spec.given([enrolled]).when(enrol('SW-AAAAAAAA', '2026-11-01')).then([]);
  });
});

describe('research ids', () => {
  it('are SW- and eight Crockford base-32 characters, drawn at random', () => {
    const ids = Array.from({ length: 2_000 }, randomResearchId);
    for (const id of ids) expect(id).toMatch(RESEARCH_ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
