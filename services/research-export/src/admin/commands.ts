import { randomUUID } from 'node:crypto';
import type { AdminAuditAction, AdminExportKind } from '@sleepweave/contracts';
import type { EventMetadata, Tx } from '@sleepweave/event-store';
import { accountDeleted, execute, isDeletedUser, lockDirectoryRow } from '@sleepweave/service-kit';
import type { ResearchExportContext } from '../context.ts';
import { auditStreamId, type DownloadedRun } from './audit.ts';
import { auditDecider, type RecordAudit } from './business-logic.ts';

export const EXPORT_ACTIONS = { users: 'users_exported', sleep: 'sleep_exported' } as const satisfies Record<
  AdminExportKind,
  AdminAuditAction
>;

/**
 * A read recorded in the audit trail answers GET only: Fastify answers HEAD for every GET by
 * running its handler, so a HEAD of an export was recorded as "Exported users data" (and
 * listed in every participant's "Who looked at your data") with no data sent.
 */
export const AUDITED_READ_HAS_NO_HEAD = false;

/** An entry to record: a new id unless given (a role change uses its integration event's id, so it is recorded once). */
type Entry = Omit<RecordAudit['data'], 'auditId'> & { auditId?: string };

/** Appends one audit entry in `tx` (its projection updates admin_audit in the same transaction). */
async function append(ctx: ResearchExportContext, tx: Tx, entry: Entry, metadata: EventMetadata): Promise<void> {
  const auditId = entry.auditId ?? randomUUID();
  await execute(ctx, { metadata, tx }, ({ handle }) =>
    handle(auditStreamId({ auditId, subjectId: entry.subjectId }), auditDecider, {
      type: 'RecordAudit',
      data: { ...entry, auditId },
    }),
  );
}

/**
 * Whether the admin who acts is still here, her directory row share-locked when she is
 * known: her deletion, under way in another transaction, is waited for (it deletes the row
 * first), so an entry naming her cannot slip in after it cleared her id from the trail.
 * One not known here yet (her registration still on its way) counts as here.
 */
export async function actorHere(tx: Tx, actorId: string): Promise<boolean> {
  if (await lockDirectoryRow(tx, actorId)) return true;
  return !(await isDeletedUser(tx, actorId));
}

/**
 * An admin read her detail: recorded before the detail is sent. Her directory row is
 * share-locked in the append transaction (docs/data-protection.md), so an entry about her
 * cannot outlive her deletion; false when she is not (or no longer) here. An admin whose
 * own account was deleted a moment ago (her token outlived it) gets 401.
 */
export async function recordParticipantView(
  ctx: ResearchExportContext,
  input: { actorId: string; subjectId: string; now: Date },
  metadata: EventMetadata,
): Promise<boolean> {
  return ctx.store.transaction(async (tx) => {
    if (!(await actorHere(tx, input.actorId))) throw accountDeleted();
    if (!(await lockDirectoryRow(tx, input.subjectId))) return false;
    await append(ctx, tx, { action: 'participant_viewed', ...input }, metadata);
    return true;
  });
}

/**
 * An admin exported everyone's users or sleep data, or downloaded a research run's zip:
 * recorded before the file is sent.
 */
export async function recordExport(
  ctx: ResearchExportContext,
  input:
    | { actorId: string; action: (typeof EXPORT_ACTIONS)[AdminExportKind]; now: Date }
    | { actorId: string; action: 'research_downloaded'; run: DownloadedRun; now: Date },
  metadata: EventMetadata,
): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    if (!(await actorHere(tx, input.actorId))) throw accountDeleted();
    await append(ctx, tx, { ...input, subjectId: null }, metadata);
  });
}

/**
 * identity.user.role_granted, in the consumer's transaction (her directory row is locked by
 * the caller): the grant or revoke as an entry of ours, under the integration event's id.
 * An admin deleted meanwhile is recorded as nobody, and as an admin, not the command line
 * (`via`; an event from before it was recorded: the command line when no admin is named).
 */
export async function recordRoleChange(
  ctx: ResearchExportContext,
  tx: Tx,
  input: {
    eventId: string;
    userId: string;
    role: 'admin' | 'participant';
    grantedBy: string | null;
    via: 'admin' | 'command_line' | undefined;
    at: Date;
  },
  metadata: EventMetadata,
): Promise<void> {
  const actorId = input.grantedBy && (await actorHere(tx, input.grantedBy)) ? input.grantedBy : null;
  const byCommandLine = (input.via ?? (input.grantedBy ? 'admin' : 'command_line')) === 'command_line';
  await append(
    ctx,
    tx,
    {
      auditId: input.eventId,
      action: input.role === 'admin' ? 'role_granted' : 'role_revoked',
      actorId,
      subjectId: input.userId,
      now: input.at,
      byCommandLine,
    },
    { ...metadata, userId: actorId },
  );
}

/**
 * identity.user.deleted by an admin, in the consumer's transaction: an entry of ours under the
 * integration event's id (so once), about nobody (every entry about her went with her), by
 * the admin, or by nobody once her own account was deleted.
 */
export async function recordAccountDeletion(
  ctx: ResearchExportContext,
  tx: Tx,
  input: { eventId: string; deletedBy: string | null; at: Date },
  metadata: EventMetadata,
): Promise<void> {
  const actorId = input.deletedBy && (await actorHere(tx, input.deletedBy)) ? input.deletedBy : null;
  await append(
    ctx,
    tx,
    { auditId: input.eventId, action: 'account_deleted', actorId, subjectId: null, now: input.at },
    { ...metadata, userId: actorId },
  );
}
