import type { AdminAuditAction } from '@sleepweave/contracts';
import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type AuditEvent, type AuditState, type DownloadedRun } from './audit.ts';

export type RecordAudit = {
  type: 'RecordAudit';
  data: {
    auditId: string;
    action: AdminAuditAction;
    actorId: string | null;
    subjectId: string | null;
    now: Date;
    byCommandLine?: boolean;
    run?: DownloadedRun;
  };
};
export type AuditCommand = RecordAudit;

/** Which actions are about one person (and so need a subject), and which about everyone. */
const ABOUT_ONE: Record<AdminAuditAction, boolean> = {
  participant_viewed: true,
  role_granted: true,
  role_revoked: true,
  users_exported: false,
  sleep_exported: false,
  research_downloaded: false,
  // about someone no longer here: her entries went with her, this one names nobody
  account_deleted: false,
};

export class InvalidAuditEntry extends Error {
  override name = 'InvalidAuditEntry';
}

/**
 * An entry is recorded once: the same entry again (a redelivered role change, a rebuild
 * replaying identity's history) decides nothing.
 */
export function recordAudit(command: RecordAudit, state: AuditState): AuditEvent[] {
  if (state.status === 'recorded') return [];
  const { auditId, action, actorId, subjectId, now, byCommandLine, run } = command.data;
  if (ABOUT_ONE[action] !== (subjectId !== null)) {
    throw new InvalidAuditEntry(`${action} ${ABOUT_ONE[action] ? 'needs' : 'takes no'} subject`);
  }
  if ((action === 'research_downloaded') !== (run !== undefined)) {
    throw new InvalidAuditEntry(`${action} ${action === 'research_downloaded' ? 'needs' : 'takes no'} run`);
  }
  return [
    {
      type: 'AdminAuditRecorded',
      data: {
        auditId,
        action,
        actorId,
        subjectId,
        at: now.toISOString(),
        ...(byCommandLine === undefined ? {} : { byCommandLine }),
        ...(run === undefined ? {} : { run }),
      },
    },
  ];
}

export function decide(command: AuditCommand, state: AuditState): AuditEvent[] {
  switch (command.type) {
    case 'RecordAudit':
      return recordAudit(command, state);
    default: {
      const exhaustive: never = command.type;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const auditDecider: Decider<AuditCommand, AuditState, AuditEvent> = { decide, evolve, initialState };
