import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, it } from 'vitest';
import { participantDecider } from './business-logic.ts';
import type { ParticipantEvent } from './participant.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const userId = '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f';
const record = (studyStartDate: string) => ({ type: 'RecordStudyParticipation' as const, data: { userId, studyStartDate, now } });
const recorded: ParticipantEvent = {
  type: 'StudyParticipationRecorded',
  data: { userId, studyStartDate: '2026-10-01', recordedAt: now.toISOString() },
};

describe('study participant decider', () => {
  it('records the start date once; a later consent does not move it', () => {
    const spec = deciderSpec(participantDecider);
    spec.given([]).when(record('2026-10-01')).then([recorded]);
    spec.given([recorded]).when(record('2026-11-01')).then([]);
  });
});
