import { THREAD_NOT_FOUND_MESSAGE } from '@sleepweave/contracts';
import { lockStream, type EventMetadata, type Tx } from '@sleepweave/event-store';
import { execute, keyReused, notFound, type DomainErrors } from '@sleepweave/service-kit';
import type { CommunityContext } from '../context.ts';
import { isMember } from '../threads/queries.ts';
import { membershipDecider, ThreadAccessDenied, ThreadNotFound } from './business-logic.ts';
import { membershipStreamId } from './membership.ts';

/** A missing thread and a direct thread she is not in are answered alike. */
export const membershipErrors: DomainErrors = [
  [ThreadNotFound, () => notFound(THREAD_NOT_FOUND_MESSAGE)],
  [ThreadAccessDenied, () => notFound(THREAD_NOT_FOUND_MESSAGE)],
];

/**
 * The thread as a command needs it, its row locked for the rest of the transaction (the
 * lock its projection's update of the row takes anyway: taken first, joins and posts in a
 * thread take turns, and none deadlocks upgrading a weaker one). So a join or a post waits
 * for the deletion of a member that is deciding whether the thread, left empty, goes, and is
 * then refused (the thread is gone) or counted (the thread stays with her in it).
 */
const threadFacts = async (tx: Tx, threadId: string) => {
  const [row] = await tx<{ is_direct: boolean }[]>`select is_direct from message_threads where id = ${threadId} for no key update`;
  return row ? { isDirect: row.is_direct } : null;
};

/**
 * She opens a thread: a public one makes her a member (once); a direct one lets only its
 * members in. 404 for a thread she may not open; 401 / 503 as every write of hers.
 */
export async function openThread(ctx: CommunityContext, input: { threadId: string; userId: string; now: Date }, metadata: EventMetadata) {
  const { threadId, userId, now } = input;
  // The common case (already a member) needs no transaction.
  if (await isMember(ctx.sql, threadId, userId)) return;
  await execute(ctx, { user: userId, metadata, errors: membershipErrors }, async ({ tx, handle }) => {
    const thread = await threadFacts(tx, threadId);
    await handle(membershipStreamId(userId, threadId), membershipDecider, { type: 'JoinThread', data: { threadId, userId, thread, now } });
  });
}

/** She writes in a thread (joining a public one on the way). 404 / 401 / 503 as openThread. */
export async function postMessage(
  ctx: CommunityContext,
  /** `now`: when it was written (the demo's and tests' past); by default, once the thread's turn has come. */
  input: { threadId: string; userId: string; messageId: string; body: string; now?: Date },
  metadata: EventMetadata,
): Promise<'posted' | 'posted before'> {
  const { threadId, userId, messageId, body } = input;
  return execute(ctx, { user: userId, metadata, errors: membershipErrors }, async ({ tx, handle }) => {
    // Posts in a thread take turns from here (its row, which the post's projection updates
    // anyway), and each is stamped once its turn has come: in commit order, and never long
    // before it commits (a live viewer asks for what came after the newest she has, from
    // 5 s before it; a post stamped before a wait for her profile, a connection or a lock
    // could commit after that and never reach her).
    const thread = await threadFacts(tx, threadId);
    // Sent again with its Idempotency-Key (its id is the key's): posted by the first try, it
    // is not posted twice. Asked under a lock of the message's id, so two tries at once find
    // the other's, whichever thread each names (her membership's lock did not: one key sent
    // to two threads at once inserted the same id twice, a 500).
    // (the lock and the lookup go out together: the backend reads once it holds the lock)
    const [, [before]] = await Promise.all([
      lockStream(tx, `message:${messageId}`),
      tx<{ thread_id: string; sender_id: string; body: string }[]>`select thread_id, sender_id, body from messages where id = ${messageId}`,
    ]);
    if (before) {
      if (before.thread_id !== threadId || before.sender_id !== userId || before.body !== body) throw keyReused();
      return 'posted before';
    }
    const now = input.now ?? new Date();
    await handle(membershipStreamId(userId, threadId), membershipDecider, {
      type: 'PostMessage',
      data: { threadId, userId, thread, messageId, body, now },
    });
    return 'posted';
  });
}
