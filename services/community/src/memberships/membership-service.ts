import { ConcurrencyError, type EventMetadata, type Tx } from '@sleepweave/event-store';
import type { CommunityContext } from '../context.ts';
import { findThread, isMember } from '../threads/queries.ts';
import { awaitDirectoryUser, lockDirectoryUser } from '@sleepweave/service-kit';
import { membershipDecider, ThreadAccessDenied, type MembershipCommand } from './business-logic.ts';
import { membershipStreamId } from './membership.ts';

/** No such thread (or a direct one she is not in: callers answer both the same way). */
export class ThreadNotFound extends Error {
  override name = 'ThreadNotFound';
}

/**
 * Runs `fn` again when another request appended to the same stream in between (her two
 * tabs posting at once): the second attempt reads the new version and decides again.
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || attempt >= attempts) throw err;
    }
  }
}

async function handleMembership(
  ctx: CommunityContext,
  tx: Tx,
  userId: string,
  threadId: string,
  command: MembershipCommand,
  metadata: EventMetadata,
) {
  return ctx.store.handle(membershipStreamId(userId, threadId), membershipDecider, command, { tx, metadata });
}

/**
 * She opens a thread. A public thread makes her a member (once); a direct thread lets
 * only its members in. Throws ThreadNotFound or ThreadAccessDenied; an HttpError 401 when
 * she was deleted, 503 when her registration has not reached community within a few
 * seconds (libs/service-kit user-directory.ts).
 */
export async function openThread(ctx: CommunityContext, input: { threadId: string; userId: string; now: Date; metadata: EventMetadata }) {
  const { threadId, userId, now, metadata } = input;
  // The common case (already a member) needs no transaction.
  if (await isMember(ctx.sql, threadId, userId)) return;
  await awaitDirectoryUser(ctx.sql, userId);
  await retryOnConflict(() =>
    ctx.store.transaction(async (tx) => {
      // Her directory row stays until we commit: a deletion in flight waits for us (and
      // removes this membership) or we wait for it and find her gone (libs/service-kit user-directory.ts).
      await lockDirectoryUser(tx, userId);
      const thread = await findThread(tx, threadId);
      if (!thread) throw new ThreadNotFound();
      await handleMembership(
        ctx,
        tx,
        userId,
        threadId,
        { type: 'JoinThread', data: { threadId, userId, thread: { isDirect: thread.is_direct }, now } },
        metadata,
      );
    }),
  );
}

/**
 * She writes in a thread (joining a public one on the way). Throws ThreadNotFound or
 * ThreadAccessDenied; 401 / 503 as openThread.
 */
export async function postMessage(
  ctx: CommunityContext,
  input: { threadId: string; userId: string; messageId: string; body: string; now: Date; metadata: EventMetadata },
): Promise<void> {
  const { threadId, userId, messageId, body, now, metadata } = input;
  await awaitDirectoryUser(ctx.sql, userId);
  await retryOnConflict(() =>
    ctx.store.transaction(async (tx) => {
      await lockDirectoryUser(tx, userId); // as in openThread
      const thread = await findThread(tx, threadId);
      if (!thread) throw new ThreadNotFound();
      await handleMembership(
        ctx,
        tx,
        userId,
        threadId,
        { type: 'PostMessage', data: { threadId, userId, thread: { isDirect: thread.is_direct }, messageId, body, now } },
        metadata,
      );
    }),
  );
}

export function isNotFoundOrDenied(err: unknown): boolean {
  return err instanceof ThreadNotFound || err instanceof ThreadAccessDenied;
}
