import type { AdminAuditAction } from '@sleepweave/contracts';
import type { DomainEvent } from '@sleepweave/event-store';

/**
 * One entry of the admin audit trail (docs/admin.md): who did what to whose data, and when.
 * Each entry is a stream of its own, named after the person it is about, so that her
 * deletion finds every entry about her by one prefix, and moves them out of her name
 * (docs/data-protection.md): `admin_audit:<subject user id>:<entry id>`, or
 * `admin_audit:all:<entry id>` for an entry that names no one (an export of everyone, an
 * account an admin deleted, an entry about someone deleted since).
 */
export const auditStreamId = (entry: { auditId: string; subjectId: string | null }) =>
  `${entry.subjectId ? subjectAuditPrefix(entry.subjectId) : NAMELESS_AUDIT_PREFIX}${entry.auditId}`;

/** Every entry about her. */
export const subjectAuditPrefix = (userId: string) => `admin_audit:${userId}:`;

/** Entries that name no one. */
export const NAMELESS_AUDIT_PREFIX = 'admin_audit:all:';

export type AdminAuditRecorded = DomainEvent<
  'AdminAuditRecorded',
  {
    auditId: string;
    action: AdminAuditAction;
    /** The admin; null for a role granted from the command line, or once her account was deleted. */
    actorId: string | null;
    /**
     * Whose detail or role; null for an export of everyone, an account deleted, or an entry
     * about someone deleted since (her id is gone: the action says which).
     */
    subjectId: string | null;
    at: string;
    /**
     * A role changed from the command line, not by an admin (who may be deleted since: then
     * `actorId` is null too). Absent before it was recorded: a role change with no actor.
     */
    byCommandLine?: boolean;
    /**
     * A research zip downloaded: which run's (its file name, and when it finished: no night
     * recorded after that is in it). Absent before it was recorded.
     */
    run?: DownloadedRun;
  }
>;
/** The research run whose zip was downloaded. */
export interface DownloadedRun {
  id: string;
  fileName: string;
  finishedAt: string;
}
export type AuditEvent = AdminAuditRecorded;

export type AuditState = { status: 'none' } | { status: 'recorded' };

export const initialState = (): AuditState => ({ status: 'none' });

export function evolve(state: AuditState, event: AuditEvent): AuditState {
  switch (event.type) {
    case 'AdminAuditRecorded':
      return { status: 'recorded' };
    default:
      return state;
  }
}
