import type { Tx } from '@sleepweave/event-store';
import type { ResearchExportContext } from '../context.ts';
import { participantStreamId } from '../participants/participant.ts';

/**
 * identity.user.deleted (docs/data-protection.md), in the transaction that removes her
 * directory row: her enrolment (and so her research id), nights and journal days go, and
 * no later run includes her. Zips of earlier runs are kept as they were made.
 */
export async function onUserDeleted(ctx: ResearchExportContext, tx: Tx, userId: string): Promise<void> {
  await ctx.store.deleteStreamsByPrefix(participantStreamId(userId), tx);
  await tx`delete from research_participants where user_id = ${userId}`;
  await tx`delete from research_nights where user_id = ${userId}`;
  await tx`delete from research_journal_entries where user_id = ${userId}`;
}
