import { WELCOME_THREAD_NAME } from '@sleepweave/contracts';
import type { EventMetadata } from '@sleepweave/event-store';
import { execute, lockDirectoryRow, type CommandScope } from '@sleepweave/service-kit';
import type { CommunityContext } from '../context.ts';
import { membershipDecider } from '../memberships/business-logic.ts';
import { membershipStreamId } from '../memberships/membership.ts';
import { ThreadAlreadyExists, threadDecider } from './business-logic.ts';
import { threadStreamId } from './thread.ts';

/** The welcome thread: one fixed id, so every instance and every restart means the same thread. */
export const WELCOME_THREAD_ID = 'c0ffee00-5eed-4a11-9e1c-000000000001';
/** The study team's welcome message in it: a fixed id, so it is posted once, whoever starts first. */
export const WELCOME_MESSAGE_ID = 'c0ffee00-5eed-4a11-9e1c-000000000003';
export const WELCOME_MESSAGE_BODY = [
  'Welcome, and thank you for being here.',
  'This is a calm corner to share how your nights are going: what helps, what doesn’t, and how the sleepwear study feels from one phase to the next. Questions are welcome, big or small, and so is simply saying hello.',
  'A few gentle habits keep it a good place: be kind, speak from your own experience, and share only what you are comfortable sharing. This community is for support between women, not medical advice; for anything that worries you, please talk to your doctor.',
  'Sleep well,\nThe Sleepweave study team',
].join('\n\n');

type Handle = CommandScope['handle'];

const create = (handle: Handle, input: { threadId: string; name: string; isDirect: boolean; pinned: boolean; now: Date }) =>
  handle(threadStreamId(input.threadId), threadDecider, { type: 'CreateThread', data: input });

const addMember = (handle: Handle, threadId: string, userId: string, role: 'creator' | 'member', now: Date) =>
  handle(membershipStreamId(userId, threadId), membershipDecider, { type: 'AddMember', data: { threadId, userId, role, now } });

/** A public thread; its creator becomes its first member (401 / 503 as every write of hers). */
export async function createPublicThread(
  ctx: CommunityContext,
  input: { threadId: string; name: string; creatorId: string; now: Date },
  metadata: EventMetadata,
): Promise<void> {
  const { threadId, name, creatorId, now } = input;
  await execute(ctx, { user: creatorId, metadata }, async ({ handle }) => {
    await create(handle, { threadId, name, isDirect: false, pinned: false, now });
    await addMember(handle, threadId, creatorId, 'creator', now);
  });
}

/** Someone invited to a direct thread whom community does not know (not yet, or no more). */
export class MemberNotKnown extends Error {
  override name = 'MemberNotKnown';
}

/**
 * A direct thread between its creator and the others named: only they may open it.
 * The app has no screen that starts one yet ("Direct messaging coming soon"); the model
 * and its access rule are in place and tested. Everyone in it must be known here (their
 * directory rows are locked as the creator's is); else MemberNotKnown.
 */
export async function startDirectThread(
  ctx: CommunityContext,
  input: { threadId: string; name: string; creatorId: string; memberIds: string[]; now: Date },
  metadata: EventMetadata,
): Promise<void> {
  const { threadId, name, creatorId, memberIds, now } = input;
  const others = [...new Set(memberIds)].filter((id) => id !== creatorId).sort();
  await execute(ctx, { user: creatorId, metadata }, async ({ tx, handle }) => {
    for (const memberId of others) {
      if (!(await lockDirectoryRow(tx, memberId))) throw new MemberNotKnown(memberId);
    }
    await create(handle, { threadId, name, isDirect: true, pinned: false, now });
    await addMember(handle, threadId, creatorId, 'creator', now);
    for (const memberId of others) await addMember(handle, threadId, memberId, 'member', now);
  });
}

/**
 * Creates the pinned welcome thread unless it exists. Safe across restarts and concurrent
 * starts: commands on one stream take turns, so the second finds the thread and the
 * decider refuses a second creation. Either way there is exactly one.
 */
export async function ensureWelcomeThread(ctx: CommunityContext, now = new Date()): Promise<'created' | 'exists'> {
  try {
    await execute(ctx, { metadata: {} }, ({ handle }) =>
      create(handle, { threadId: WELCOME_THREAD_ID, name: WELCOME_THREAD_NAME, isDirect: false, pinned: true, now }),
    );
    ctx.logger.info({ threadId: WELCOME_THREAD_ID }, 'welcome thread created');
    return 'created';
  } catch (err) {
    if (err instanceof ThreadAlreadyExists) return 'exists';
    throw err;
  }
}

/**
 * Posts the study team's welcome message in the welcome thread unless it is there. Same
 * guarantees as ensureWelcomeThread: the decider knows the message's fixed id, so a
 * restart or a second instance starting at the same time posts nothing more.
 */
export async function ensureWelcomeMessage(ctx: CommunityContext, now = new Date()): Promise<'posted' | 'exists'> {
  const { events } = await execute(ctx, { metadata: {} }, ({ handle }) =>
    handle(threadStreamId(WELCOME_THREAD_ID), threadDecider, {
      type: 'PostTeamMessage',
      data: { threadId: WELCOME_THREAD_ID, messageId: WELCOME_MESSAGE_ID, body: WELCOME_MESSAGE_BODY, now },
    }),
  );
  if (events.length === 0) return 'exists';
  ctx.logger.info({ threadId: WELCOME_THREAD_ID, messageId: WELCOME_MESSAGE_ID }, 'welcome message posted');
  return 'posted';
}
