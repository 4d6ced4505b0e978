import type { EventMetadata, Tx } from '@sleepweave/event-store';
import { ConcurrencyError } from '@sleepweave/event-store';
import type { CommunityContext } from '../context.ts';
import { membershipDecider } from '../memberships/business-logic.ts';
import { membershipStreamId } from '../memberships/membership.ts';
import { awaitDirectoryUser, lockDirectoryRow, lockDirectoryUser } from '@sleepweave/service-kit';
import { threadDecider, ThreadAlreadyExists } from './business-logic.ts';
import { threadStreamId } from './thread.ts';

/** The welcome thread: one fixed id, so every instance and every restart means the same thread. */
export const WELCOME_THREAD_ID = 'c0ffee00-5eed-4a11-9e1c-000000000001';
export const WELCOME_THREAD_NAME = 'Welcome to the Sleepweave Community';

async function create(
  ctx: CommunityContext,
  tx: Tx,
  input: { threadId: string; name: string; isDirect: boolean; pinned: boolean; now: Date; metadata: EventMetadata },
) {
  const { threadId, name, isDirect, pinned, now, metadata } = input;
  await ctx.store.handle(
    threadStreamId(threadId),
    threadDecider,
    { type: 'CreateThread', data: { threadId, name, isDirect, pinned, now } },
    { tx, metadata },
  );
}

async function addMember(
  ctx: CommunityContext,
  tx: Tx,
  threadId: string,
  userId: string,
  role: 'creator' | 'member',
  now: Date,
  metadata: EventMetadata,
) {
  await ctx.store.handle(
    membershipStreamId(userId, threadId),
    membershipDecider,
    { type: 'AddMember', data: { threadId, userId, role, now } },
    { tx, metadata },
  );
}

/** Someone invited to a direct thread whom community does not know (not yet, or no more). */
export class MemberNotKnown extends Error {
  override name = 'MemberNotKnown';
}

/**
 * A public thread; its creator becomes its first member. An HttpError 401 when she was
 * deleted, 503 when her registration has not reached community within a few seconds.
 */
export async function createPublicThread(
  ctx: CommunityContext,
  input: { threadId: string; name: string; creatorId: string; now: Date; metadata: EventMetadata },
) {
  const { threadId, name, creatorId, now, metadata } = input;
  await awaitDirectoryUser(ctx.sql, creatorId);
  await ctx.store.transaction(async (tx) => {
    // Her directory row stays until we commit: a deletion in flight waits for us (and
    // removes her membership, and the thread if nobody else is in it) or we wait for it
    // and find her gone (libs/service-kit user-directory.ts).
    await lockDirectoryUser(tx, creatorId);
    await create(ctx, tx, { threadId, name, isDirect: false, pinned: false, now, metadata });
    await addMember(ctx, tx, threadId, creatorId, 'creator', now, metadata);
  });
}

/**
 * A direct thread between its creator and the others named: only they may open it.
 * The app has no screen that starts one yet ("Direct messaging coming soon"); the model
 * and its access rule are in place and tested. Everyone in it must be known here (their
 * directory rows are locked as for a public thread); else MemberNotKnown.
 */
export async function startDirectThread(
  ctx: CommunityContext,
  input: { threadId: string; name: string; creatorId: string; memberIds: string[]; now: Date; metadata: EventMetadata },
) {
  const { threadId, name, creatorId, memberIds, now, metadata } = input;
  await ctx.store.transaction(async (tx) => {
    await lockDirectoryUser(tx, creatorId);
    const others = [...new Set(memberIds)].filter((id) => id !== creatorId).sort();
    for (const memberId of others) {
      if (!(await lockDirectoryRow(tx, memberId))) throw new MemberNotKnown(memberId);
    }
    await create(ctx, tx, { threadId, name, isDirect: true, pinned: false, now, metadata });
    await addMember(ctx, tx, threadId, creatorId, 'creator', now, metadata);
    for (const memberId of new Set(memberIds)) {
      if (memberId !== creatorId) await addMember(ctx, tx, threadId, memberId, 'member', now, metadata);
    }
  });
}

/**
 * Creates the pinned welcome thread unless it exists. Safe across restarts (the decider
 * refuses a second creation) and concurrent starts (the second append finds the stream
 * and loses the version check): either way there is exactly one.
 */
export async function ensureWelcomeThread(ctx: CommunityContext, now = new Date()): Promise<'created' | 'exists'> {
  try {
    await ctx.store.transaction((tx) =>
      create(ctx, tx, { threadId: WELCOME_THREAD_ID, name: WELCOME_THREAD_NAME, isDirect: false, pinned: true, now, metadata: {} }),
    );
    ctx.logger.info({ threadId: WELCOME_THREAD_ID }, 'welcome thread created');
    return 'created';
  } catch (err) {
    if (err instanceof ThreadAlreadyExists || err instanceof ConcurrencyError) return 'exists';
    throw err;
  }
}
