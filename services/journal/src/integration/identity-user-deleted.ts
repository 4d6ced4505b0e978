import type { UserDirectoryOptions } from '@sleepweave/service-kit';
import type { JournalContext } from '../context.ts';
import { journalEntryStreamPrefix } from '../entries/journal-entry.ts';

/**
 * identity.user.deleted (docs/data-protection.md): service-kit removes her user_directory
 * row, then, in the same transaction, this removes her entry streams and read-model rows.
 */
export function identityUserDeleted(ctx: JournalContext): UserDirectoryOptions {
  return {
    async onUserDeleted(tx, userId) {
      await ctx.store.deleteStreamsByPrefix(journalEntryStreamPrefix(userId), tx);
      await tx`delete from journal_entries where user_id = ${userId}`;
    },
  };
}
