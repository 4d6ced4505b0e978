import { STUDY_TEAM_ID, STUDY_TEAM_NAME, type Message, type ThreadDetail, type ThreadListItem, Uuid } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import { cursorPart, encodeCursor, toPage, type Sql } from '@sleepweave/service-kit';
import { z } from 'zod';

type Q = Sql | Tx;
const q = (sql: Q) => sql as Sql;

/** The newest messages a thread answer carries by default (oldest first), and the most it carries (`?limit=`). */
export const THREAD_MESSAGE_LIMIT = 500;
/** The threads a list page carries by default: the pinned ones and then the most recently active (docs/community.md); also the most (`?limit=`). */
export const THREAD_LIST_LIMIT = 100;

export interface ThreadRow {
  id: string;
  name: string;
  is_direct: boolean;
  pinned: boolean;
  created_by: string | null;
  created_at: Date;
}

export async function findThread(sql: Q, threadId: string): Promise<ThreadRow | undefined> {
  const [row] = await q(sql)<ThreadRow[]>`
    select id, name, is_direct, pinned, created_by, created_at from message_threads where id = ${threadId}`;
  return row;
}

export async function isMember(sql: Q, threadId: string, userId: string): Promise<boolean> {
  const [row] = await q(sql)`select 1 from thread_members where thread_id = ${threadId} and user_id = ${userId}`;
  return row !== undefined;
}

/** Whether she may open the thread: it exists and is public, or she is one of its members. */
export async function mayAccess(sql: Q, threadId: string, userId: string): Promise<boolean> {
  const thread = await findThread(sql, threadId);
  if (!thread) return false;
  return !thread.is_direct || (await isMember(sql, threadId, userId));
}

interface ListRow {
  id: string;
  name: string;
  is_direct: boolean;
  pinned: boolean;
  created_at: Date;
  member_count: number;
  last_message_preview: string | null;
  last_message_at: Date | null;
  activity_at: Date;
}

const toListItem = (row: ListRow): ThreadListItem => ({
  id: row.id,
  name: row.name,
  isDirect: row.is_direct,
  pinned: row.pinned,
  memberCount: row.member_count,
  createdAt: row.created_at.toISOString(),
  lastMessage:
    row.last_message_preview !== null && row.last_message_at
      ? { body: row.last_message_preview, createdAt: row.last_message_at.toISOString() }
      : null,
});

/** A thread list cursor: the last card's sort key (pinned, activity, id). */
export const ThreadListCursor = z.tuple([z.union([z.literal(0), z.literal(1)]), cursorPart.instant, Uuid]);
export type ThreadListCursor = z.infer<typeof ThreadListCursor>;

/**
 * Public threads and the direct threads she belongs to: pinned first, then the most
 * recently active (then by id, all descending); `limit` of them after `cursor`: one range
 * of the `message_threads_list` index, whose columns run in the same order. Member count and last message (cut to one character more than the preview, so
 * the card knows whether to add an ellipsis) are kept by the threads projection: no
 * message is read.
 */
export async function listThreads(
  sql: Q,
  userId: string,
  page: { limit: number; cursor?: ThreadListCursor } = { limit: THREAD_LIST_LIMIT },
): Promise<{ items: ThreadListItem[]; next: string | null }> {
  const db = q(sql);
  const after = page.cursor
    ? db`and (t.pinned, t.activity_at, t.id) < (${page.cursor[0] === 1}, ${page.cursor[1]}::timestamptz, ${page.cursor[2]}::uuid)`
    : db``;
  const rows = await db<ListRow[]>`
    select t.id, t.name, t.is_direct, t.pinned, t.created_at, t.member_count,
           t.last_message_preview, t.last_message_at, t.activity_at
    from message_threads t
    where (not t.is_direct
       or exists (select 1 from thread_members m where m.thread_id = t.id and m.user_id = ${userId}))
      ${after}
    order by t.pinned desc, t.activity_at desc, t.id desc
    limit ${page.limit + 1}`;
  const { items, next } = toPage(rows, page.limit, (row) => [row.pinned ? 1 : 0, row.activity_at.toISOString(), row.id]);
  return { items: items.map(toListItem), next };
}

export async function threadSummary(sql: Q, threadId: string): Promise<ThreadListItem | undefined> {
  const [row] = await q(sql)<ListRow[]>`
    select id, name, is_direct, pinned, created_at, member_count, last_message_preview, last_message_at, activity_at
    from message_threads where id = ${threadId}`;
  return row ? toListItem(row) : undefined;
}

interface MessageRow {
  id: string;
  thread_id: string;
  sender_id: string;
  body: string;
  created_at: Date;
  first_name: string | null;
  email_local_part: string | null;
  profile_image_url: string | null;
}

/**
 * Sender names come from user_directory (identity's events); unknown senders get nulls.
 * Of her e-mail address only the part before the @ leaves the service, and only when she has
 * no first name (the screen names her by it then, docs/product.md §2): every signed-in member
 * reads these, and that part often is her full name (docs/decisions.md, Community).
 */
const messageColumns = (sql: Sql) => sql`
  m.id, m.thread_id, m.sender_id, m.body, m.created_at, u.first_name,
  case when coalesce(u.first_name, '') = '' then regexp_replace(u.email, '@[^@]*$', '') end as email_local_part,
  u.profile_image_url`;

function toMessage(row: MessageRow): Message {
  // The study team is no user of identity: its name is ours to give.
  if (row.sender_id === STUDY_TEAM_ID) {
    return {
      id: row.id,
      threadId: row.thread_id,
      senderId: row.sender_id,
      body: row.body,
      createdAt: row.created_at.toISOString(),
      sender: { firstName: STUDY_TEAM_NAME, email: null, profileImageUrl: null },
    };
  }
  return {
    id: row.id,
    threadId: row.thread_id,
    senderId: row.sender_id,
    body: row.body,
    createdAt: row.created_at.toISOString(),
    sender: { firstName: row.first_name, email: row.email_local_part, profileImageUrl: row.profile_image_url },
  };
}

export async function findMessage(sql: Q, messageId: string): Promise<Message | undefined> {
  const [row] = await q(sql)<MessageRow[]>`
    select ${messageColumns(q(sql))}
    from messages m left join user_directory u on u.user_id = m.sender_id
    where m.id = ${messageId}`;
  return row ? toMessage(row) : undefined;
}

/** A message cursor: a message's place in its thread (time, id). */
export const MessageCursor = z.tuple([cursorPart.instant, Uuid]);
export type MessageCursor = z.infer<typeof MessageCursor>;
/** How far before an `after` cursor the catch-up starts (see threadDetail). */
export const AFTER_OVERLAP_SECONDS = 5;
/** Before any message: the `after` cursor of a thread with none yet. */
const START: MessageCursor = ['1970-01-01T00:00:00.000Z', '00000000-0000-0000-0000-000000000000'];
const cursorOf = (m: Message) => encodeCursor([m.createdAt, m.id]);

export interface MessagePage {
  limit: number;
  /** Only messages after this one (oldest first, the first `limit`): what is new since. */
  after?: MessageCursor;
  /** Only messages before this one (the newest `limit` of them): earlier messages. */
  before?: MessageCursor;
}

/**
 * The thread with messages, oldest first: by default its newest `limit`; with `after`,
 * the first `limit` from 5 s before that message on (a live viewer's catch-up: what is
 * new, and the few of the last seconds she may have); with `before`,
 * the newest `limit` older than it. Each is one range of the (thread, time, id) index.
 * `after` is the cursor of the newest message given (pass it back for what is new),
 * `before` the cursor of the oldest when older ones exist (null when none do; and in
 * `after` mode, where the viewer has them).
 */
export async function threadDetail(
  sql: Q,
  threadId: string,
  currentUserId: string,
  page: MessagePage = { limit: THREAD_MESSAGE_LIMIT },
): Promise<ThreadDetail | undefined> {
  const thread = await threadSummary(sql, threadId);
  if (!thread) return undefined;
  const db = q(sql);
  const from = db`from messages m left join user_directory u on u.user_id = m.sender_id where m.thread_id = ${threadId}`;
  let rows: MessageRow[];
  let older = false;
  if (page.after) {
    // From a little before the cursor: a post stamped earlier may commit after a later one
    // (its transaction took longer), so the viewer may get a few she has (she merges by id).
    rows = await db<MessageRow[]>`
      select ${messageColumns(db)} ${from}
        and m.created_at > ${page.after[0]}::timestamptz - make_interval(secs => ${AFTER_OVERLAP_SECONDS})
      order by m.created_at, m.id
      limit ${page.limit}`;
  } else {
    const newest = await db<MessageRow[]>`
      select ${messageColumns(db)} ${from}
        ${page.before ? db`and (m.created_at, m.id) < (${page.before[0]}::timestamptz, ${page.before[1]}::uuid)` : db``}
      order by m.created_at desc, m.id desc
      limit ${page.limit + 1}`;
    older = newest.length > page.limit;
    rows = newest.slice(0, page.limit).reverse();
  }
  const messages = rows.map(toMessage);
  const first = messages[0];
  const last = messages.at(-1);
  const { lastMessage: _none, ...rest } = thread;
  return {
    thread: rest,
    messages,
    currentUserId,
    after: last ? cursorOf(last) : encodeCursor(page.after ?? (page.before ? page.before : START)),
    before: older && first ? cursorOf(first) : null,
  };
}
