import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, it } from 'vitest';
import type { AuditEvent } from './audit.ts';
import { auditDecider, InvalidAuditEntry } from './business-logic.ts';

const auditId = '3d1e0a52-0c5f-4a33-9a56-2f1b7c0d9e11';
const actorId = '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f';
const subjectId = '5c7d2e90-1f3b-4a6d-8c9e-0a1b2c3d4e5f';
const now = new Date('2026-10-01T12:00:00.000Z');

describe('audit entry decider', () => {
  it('records an entry once; the same entry again decides nothing', () => {
    const spec = deciderSpec(auditDecider);
    const viewed: AuditEvent = {
      type: 'AdminAuditRecorded',
      data: { auditId, action: 'participant_viewed', actorId, subjectId, at: now.toISOString() },
    };
    const record = { type: 'RecordAudit' as const, data: { auditId, action: 'participant_viewed' as const, actorId, subjectId, now } };
    spec.given([]).when(record).then([viewed]);
    spec.given([viewed]).when(record).then([]);
  });

  it('knows which actions are about one person and which about everyone', () => {
    const spec = deciderSpec(auditDecider);
    spec
      .given([])
      .when({ type: 'RecordAudit', data: { auditId, action: 'users_exported', actorId, subjectId: null, now } })
      .then([{ type: 'AdminAuditRecorded', data: { auditId, action: 'users_exported', actorId, subjectId: null, at: now.toISOString() } }]);
    spec
      .given([])
      .when({ type: 'RecordAudit', data: { auditId, action: 'participant_viewed', actorId, subjectId: null, now } })
      .thenThrows(InvalidAuditEntry);
    spec
      .given([])
      .when({ type: 'RecordAudit', data: { auditId, action: 'sleep_exported', actorId, subjectId, now } })
      .thenThrows(InvalidAuditEntry);
  });

  it('names the run of a research download, and only there', () => {
    const spec = deciderSpec(auditDecider);
    const run = { id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', fileName: 'sleepweave-research.zip', finishedAt: now.toISOString() };
    spec
      .given([])
      .when({ type: 'RecordAudit', data: { auditId, action: 'research_downloaded', actorId, subjectId: null, now, run } })
      .then([
        {
          type: 'AdminAuditRecorded',
          data: { auditId, action: 'research_downloaded', actorId, subjectId: null, at: now.toISOString(), run },
        },
      ]);
    spec
      .given([])
      .when({ type: 'RecordAudit', data: { auditId, action: 'research_downloaded', actorId, subjectId: null, now } })
      .thenThrows(InvalidAuditEntry);
    spec
      .given([])
      .when({ type: 'RecordAudit', data: { auditId, action: 'sleep_exported', actorId, subjectId: null, now, run } })
      .thenThrows(InvalidAuditEntry);
  });
});
