import type { Tx } from '@sleepweave/event-store';
import type { ResearchExportContext } from '../context.ts';
import { subjectAuditPrefix } from '../admin/audit.ts';
import { participantStreamId } from '../participants/participant.ts';

/**
 * identity.user.deleted (docs/data-protection.md), in the transaction that removes her
 * directory row: her enrolment (and so her research id), nights and journal days go, and
 * no later run includes her. Zips of earlier runs are kept as they were made. Her admin
 * dashboard counts and the audit entries about her go; her id leaves those she made as an
 * admin, and the research runs she asked for.
 */
export async function onUserDeleted(ctx: ResearchExportContext, tx: Tx, userId: string): Promise<void> {
  await ctx.store.deleteStreamsByPrefix(participantStreamId(userId), tx);
  await tx`delete from research_participants where user_id = ${userId}`;
  await tx`delete from research_nights where user_id = ${userId}`;
  await tx`delete from research_journal_entries where user_id = ${userId}`;
  await tx`delete from admin_night_activity where user_id = ${userId}`;
  await tx`delete from admin_journal_activity where user_id = ${userId}`;
  await tx`delete from admin_user_order where user_id = ${userId}`;
  // The audit trail: every entry about her goes; where she was the admin, she becomes nobody
  // (the entry stays: what was done to someone else's data is that person's to see).
  await ctx.store.deleteStreamsByPrefix(subjectAuditPrefix(userId), tx);
  await tx`delete from admin_audit where subject_id = ${userId}`;
  await tx`update admin_audit set actor_id = null where actor_id = ${userId}`;
  await tx`
    update events set data = jsonb_set(data, '{actorId}', 'null'::jsonb)
    where type = 'AdminAuditRecorded' and data ->> 'actorId' = ${userId}`;
  // A research run she asked for stays, asked for by nobody.
  await tx`update research_runs set requested_by = null where requested_by = ${userId}`;
  await tx`
    update events set data = jsonb_set(data, '{requestedBy}', 'null'::jsonb)
    where type = 'RunRequested' and data ->> 'requestedBy' = ${userId}`;
  await tx`update events set metadata = metadata - 'userId' where metadata ->> 'userId' = ${userId}`;
}
