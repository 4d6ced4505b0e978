import { z } from 'zod';
import { groupThousands, hasSomethingToSee, hasStackedMarks, stackedMarksMessage, Uuid } from './common.ts';
import { NOT_IN_A_NAME, readsAs, SLEEPWEAVE_LETTERS } from './identity.ts';

/** docs/product.md §9 and the issue: limits of the community payloads. */
export const THREAD_NAME_MAX_LENGTH = 120;
export const MESSAGE_BODY_MAX_LENGTH = 4_000;
/** The card shows this many characters of the last message. */
export const LAST_MESSAGE_PREVIEW_LENGTH = 100;
/** The message a missing thread and a thread she may not open share (never another thread's data). */
export const THREAD_NOT_FOUND_MESSAGE = 'Thread not found or access denied';

/**
 * The Sleepweave study team: the one non-member author, of the welcome thread's welcome
 * message (docs/community.md, "The welcome thread"). Not a user of identity: never signs
 * in, is never in a member count or the Community Stats.
 */
export const STUDY_TEAM_ID = 'c0ffee00-5eed-4a11-9e1c-000000000002';
export const STUDY_TEAM_NAME = 'Sleepweave study team';

/**
 * A message may hold new lines and tabs, no other control character, nor the bidi
 * embeddings and overrides (U+202A-U+202E) that would show the text after them other than
 * it is, reversed (names refuse them too; the isolates, which keep their text apart, stay).
 */
const CONTROL_IN_A_MESSAGE = /[^\P{Cc}\n\r\t]|[\u202A-\u202E]/u;

/** The study team's pinned thread, which every member joins. */
export const WELCOME_THREAD_NAME = 'Welcome to the Sleepweave Community';

/** "Welcome to the Sleepweave", "Welcome to Sleepweave", "Welcome Sleepweave" as the eye reads them. */
const WELCOME_TO_SLEEPWEAVE = new RegExp(`welcome(?:to)?(?:the)?${SLEEPWEAVE_LETTERS}`);

/**
 * Whether a thread's name reads as the study team's welcome: a member's copy of it, listed
 * under the real one, held a message asking for e-mail addresses and dates of birth (an
 * outside tester). Other names with both words stay ("Our Sleepweave welcome packs").
 */
export function readsAsWelcomeThread(name: string): boolean {
  return readsAs(name, WELCOME_TO_SLEEPWEAVE);
}

/**
 * POST /api/community/thread: the name, trimmed, 1-120 characters, something to see, one
 * line without control characters or the bidi overrides that would show it other than it is,
 * and not the study team's welcome.
 */
export const CreateThreadRequest = z.object({
  name: z
    .string({ error: (issue) => (issue.input == null ? 'Please enter a name for your thread.' : 'Thread name must be text') })
    .trim()
    .refine(hasSomethingToSee, 'Please enter a name for your thread.')
    .max(THREAD_NAME_MAX_LENGTH, `Thread name must be at most ${THREAD_NAME_MAX_LENGTH} characters`)
    .refine((name) => !NOT_IN_A_NAME.test(name), 'Thread name must be one line of text, without control characters')
    .refine((name) => !hasStackedMarks(name), stackedMarksMessage('Thread name'))
    .refine((name) => !readsAsWelcomeThread(name), `Thread name must not read as the study team's "${WELCOME_THREAD_NAME}"`),
});
export type CreateThreadRequest = z.infer<typeof CreateThreadRequest>;

/**
 * POST /api/community/message: a non-blank body (something to see) of at most 4,000
 * characters, stored as plain text (surrounding blank lines and spaces are trimmed; inner
 * new lines and tabs are kept, no other control character).
 */
export const CreateMessageRequest = z.object({
  threadId: z.uuid({ error: (issue) => (issue.input == null ? 'Thread is required' : 'Thread must be a thread id') }).toLowerCase(),
  body: z
    .string({ error: (issue) => (issue.input == null ? 'Message must not be empty' : 'Message must be text') })
    .trim()
    .refine(hasSomethingToSee, 'Message must not be empty')
    .max(MESSAGE_BODY_MAX_LENGTH, `Message must be at most ${groupThousands(MESSAGE_BODY_MAX_LENGTH)} characters`)
    .refine((body) => !CONTROL_IN_A_MESSAGE.test(body), 'Message must be plain text, without control characters')
    .refine((body) => !hasStackedMarks(body), stackedMarksMessage('Message')),
});
export type CreateMessageRequest = z.infer<typeof CreateMessageRequest>;

/** GET /api/community/threads: one card. `lastMessage` is null while nobody has written. */
export const ThreadListItem = z.object({
  id: Uuid,
  name: z.string(),
  isDirect: z.boolean(),
  pinned: z.boolean(),
  memberCount: z.number().int().nonnegative(),
  createdAt: z.string(),
  lastMessage: z.object({ body: z.string(), createdAt: z.string() }).nullable(),
});
export type ThreadListItem = z.infer<typeof ThreadListItem>;
/**
 * GET /api/community/threads: pinned first, then the most recently active; 100 (`?limit=`,
 * at most 100) a page; the next page's cursor is in the `X-Next-Cursor` header (`?cursor=`).
 */
export const ThreadList = z.array(ThreadListItem);

/**
 * Who wrote a message, from the community service's copy of identity's users. All null
 * when the writer is not (yet) known there: the screen then says "User".
 */
export const MessageSender = z.object({
  firstName: z.string().nullable(),
  /**
   * Only the part of her e-mail address before the @ ("maya.k" for maya.k@example.com), and
   * only when she has no first name (null otherwise): every signed-in member reads this, so
   * the full address never leaves community. The field keeps the spec's name
   * (docs/decisions.md, Community).
   */
  email: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});
export type MessageSender = z.infer<typeof MessageSender>;

export const Message = z.object({
  id: Uuid,
  threadId: Uuid,
  senderId: Uuid,
  body: z.string(),
  createdAt: z.string(),
  sender: MessageSender,
});
export type Message = z.infer<typeof Message>;

/** GET /api/community/thread/{id}: messages oldest first; `currentUserId` marks her own. */
export const ThreadDetail = z.object({
  thread: z.object({
    id: Uuid,
    name: z.string(),
    isDirect: z.boolean(),
    pinned: z.boolean(),
    memberCount: z.number().int().nonnegative(),
    createdAt: z.string(),
  }),
  messages: z.array(Message),
  currentUserId: Uuid,
  /**
   * Growth (docs/community.md): pass back as `?after=` for the messages posted since
   * (from 5 s before the newest one given: merge them by id).
   */
  after: z.string(),
  /** Pass back as `?before=` for earlier messages; null when there are none. */
  before: z.string().nullable(),
});
export type ThreadDetail = z.infer<typeof ThreadDetail>;

/** GET /api/community/stats: the Community Stats card, computed from data (docs/community.md). */
export const CommunityStats = z.object({
  /** Distinct members who posted in the last 30 days. */
  activeMembers: z.number().int().nonnegative(),
  /** Public threads with a message since midnight in the viewer's timezone. */
  discussionsToday: z.number().int().nonnegative(),
  /** Participants whose 42-day study is over (start date + 42 days <= today). */
  sleepStudiesShared: z.number().int().nonnegative(),
  /** The viewer's timezone the day boundaries were taken in. */
  timezone: z.string(),
});
export type CommunityStats = z.infer<typeof CommunityStats>;
