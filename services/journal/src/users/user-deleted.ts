import type { Tx } from '@sleepweave/event-store';
import type { JournalContext } from '../context.ts';
import { journalEntryStreamPrefix } from '../entries/journal-entry.ts';

/**
 * identity.user.deleted (docs/data-protection.md), in the transaction that removes her
 * directory row: her entry streams and read-model rows go.
 */
export async function onUserDeleted(ctx: JournalContext, tx: Tx, userId: string): Promise<void> {
  await ctx.store.deleteStreamsByPrefix(journalEntryStreamPrefix(userId), tx);
  await tx`delete from journal_entries where user_id = ${userId}`;
}
