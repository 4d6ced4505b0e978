import type { Tx } from '@sleepweave/event-store';
import { consentStreamId } from '../consents/consent.ts';
import type { StudyContext } from '../context.ts';
import { sleepLogStreamPrefix } from '../sleep-logs/sleep-log.ts';

/**
 * identity.user.deleted (docs/data-protection.md), in the transaction that removes her
 * directory row: her consent and every night she logged go, events and read-model rows alike.
 */
export async function onUserDeleted(ctx: StudyContext, tx: Tx, userId: string): Promise<void> {
  await ctx.store.deleteStreams([consentStreamId(userId)], tx);
  await ctx.store.deleteStreamsByPrefix(sleepLogStreamPrefix(userId), tx);
  await tx`delete from consents where user_id = ${userId}`;
  await tx`delete from sleep_logs where user_id = ${userId}`;
}
