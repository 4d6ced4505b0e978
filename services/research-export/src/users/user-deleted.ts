import type { Tx } from '@sleepweave/event-store';
import type { ResearchExportContext } from '../context.ts';
import { NAMELESS_AUDIT_PREFIX, subjectAuditPrefix } from '../admin/audit.ts';
import { participantStreamId } from '../participants/participant.ts';
import { RUN_LOCK } from '../runs/worker.ts';

/**
 * How long before her consent a run may have started and still hold her. A run's start is
 * stamped before its snapshot is taken (the zip's modules load in between: a second or two
 * the first time), by this service's clock, and her consent by study's (the instances'
 * clocks may differ by seconds): a consent stamped just after a run's start could be in its
 * snapshot. Generous on purpose: a zip removed that did not hold her is made again by a
 * run; one kept that did is her data kept.
 */
export const RUN_STARTED_BEFORE_CONSENT_MARGIN_MS = 10 * 60_000;

/**
 * Removes the kept zips of the runs that may hold a participant who consented at
 * `consentedAt` (those started since, less the margin above: an earlier run cannot hold
 * her), recording why. Waits, on the runs' lock, for a run being made to end, so that its
 * zip is removed too.
 */
async function eraseRunFiles(tx: Tx, consentedAt: Date): Promise<void> {
  const since = new Date(consentedAt.getTime() - RUN_STARTED_BEFORE_CONSENT_MARGIN_MS);
  await tx`select pg_advisory_xact_lock(hashtext(${RUN_LOCK}))`;
  await tx`
    with erased as (
      delete from research_run_files f using research_runs r
      where r.id = f.run_id and r.started_at >= ${since}
      returning f.run_id
    )
    insert into research_run_erasures (run_id, erased_at) select run_id, now() from erased
    on conflict (run_id) do nothing`;
}

/**
 * identity.user.deleted (docs/data-protection.md), in the transaction that removes her
 * directory row: her enrolment (and so her research id), nights and journal days go, and
 * no later run includes her. So do the kept zips of the runs that may include her (those
 * started since her consent): the runs stay listed, their files removed, and a run being
 * made is waited for first (its snapshot may hold her). Her admin dashboard counts go; her
 * id leaves the audit trail (the entries about her, and those she made as an admin, stay)
 * and the research runs she asked for.
 */
export async function onUserDeleted(ctx: ResearchExportContext, tx: Tx, userId: string): Promise<void> {
  const [enrolled] = await tx<{ consented_at: Date }[]>`select consented_at from research_participants where user_id = ${userId}`;
  if (enrolled) await eraseRunFiles(tx, enrolled.consented_at);
  await ctx.store.deleteStreamsByPrefix(participantStreamId(userId), tx);
  await tx`delete from research_participants where user_id = ${userId}`;
  await tx`delete from research_nights where user_id = ${userId}`;
  await tx`delete from research_journal_entries where user_id = ${userId}`;
  await tx`delete from admin_night_activity where user_id = ${userId}`;
  await tx`delete from admin_journal_activity where user_id = ${userId}`;
  await tx`delete from admin_user_order where user_id = ${userId}`;
  // The audit trail keeps every admin's act, and her id leaves it: the entries about her
  // (her details read, her role changed) stay about "a deleted account" (who gave an account
  // the admin role stays known after it is gone); where she was the admin, she becomes
  // nobody (what was done to someone else's data is that person's to see).
  await tx`update admin_audit set subject_id = null where subject_id = ${userId}`;
  await ctx.store.renameStreamsByPrefix(subjectAuditPrefix(userId), NAMELESS_AUDIT_PREFIX, { data: { subjectId: null }, tx });
  // The events are read only for one who was an admin: the read models (kept in the
  // transaction of their events) say so (the trail's by an index; the runs are one a
  // night), where the events' data has no index and every entry of the trail would be read
  // at every deletion.
  const actor = await tx`update admin_audit set actor_id = null where actor_id = ${userId}`;
  if (actor.count > 0) {
    await tx`
      update events set data = jsonb_set(data, '{actorId}', 'null'::jsonb)
      where type = 'AdminAuditRecorded' and data ->> 'actorId' = ${userId}`;
  }
  // A research run she asked for stays, asked for by nobody.
  const requester = await tx`update research_runs set requested_by = null where requested_by = ${userId}`;
  if (requester.count > 0) {
    await tx`
      update events set data = jsonb_set(data, '{requestedBy}', 'null'::jsonb)
      where type = 'RunRequested' and data ->> 'requestedBy' = ${userId}`;
  }
  await ctx.store.eraseUserFromMetadata(userId, tx);
}
