import { z } from 'zod';
import { Uuid } from './common.ts';

/**
 * Events the community service publishes. Message bodies do not travel on the bus (a
 * listener that needs one asks the community API, which checks access): only what
 * changed, where, and who did it.
 */
export const communityEvents = {
  'community.thread.created': z.object({
    threadId: Uuid,
    name: z.string(),
    isDirect: z.boolean(),
    pinned: z.boolean(),
    createdAt: z.string(),
  }),
  'community.member.joined': z.object({
    threadId: Uuid,
    userId: Uuid,
    role: z.enum(['creator', 'member']),
    joinedAt: z.string(),
  }),
  'community.message.posted': z.object({
    messageId: Uuid,
    threadId: Uuid,
    senderId: Uuid,
    createdAt: z.string(),
  }),
  /**
   * Something left the thread: a deleted account's messages and membership. Who has it open
   * loads it again (a screen takes in only new messages). Says nothing of whose they were.
   */
  'community.thread.changed': z.object({
    threadId: Uuid,
    changedAt: z.string(),
  }),
} as const;
