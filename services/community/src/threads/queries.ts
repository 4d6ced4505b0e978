import {
  LAST_MESSAGE_PREVIEW_LENGTH,
  STUDY_TEAM_ID,
  STUDY_TEAM_NAME,
  type Message,
  type ThreadDetail,
  type ThreadListItem,
} from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';

type Q = Sql | Tx;
const q = (sql: Q) => sql as Sql;

/** The newest messages a thread answer carries (oldest first). */
export const THREAD_MESSAGE_LIMIT = 500;
/** The threads the list carries: the pinned ones and then the most recently active (docs/community.md). */
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
  last_body: string | null;
  last_at: Date | null;
}

/**
 * Public threads and the direct threads she belongs to: pinned first, then the most
 * recently active; THREAD_LIST_LIMIT of them. The last message is cut to one character more than the preview, so
 * the card knows whether to add an ellipsis without receiving whole messages.
 */
export async function listThreads(sql: Q, userId: string): Promise<ThreadListItem[]> {
  const rows = await q(sql)<ListRow[]>`
    select t.id, t.name, t.is_direct, t.pinned, t.created_at,
           (select count(*)::int from thread_members m where m.thread_id = t.id) as member_count,
           left(last.body, ${LAST_MESSAGE_PREVIEW_LENGTH + 1}) as last_body, last.created_at as last_at
    from message_threads t
    left join lateral (
      select body, created_at from messages where thread_id = t.id order by created_at desc, id desc limit 1
    ) last on true
    where not t.is_direct
       or exists (select 1 from thread_members m where m.thread_id = t.id and m.user_id = ${userId})
    order by t.pinned desc, coalesce(last.created_at, t.created_at) desc, t.id
    limit ${THREAD_LIST_LIMIT}`;
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    isDirect: row.is_direct,
    pinned: row.pinned,
    memberCount: row.member_count,
    createdAt: row.created_at.toISOString(),
    lastMessage: row.last_body !== null && row.last_at ? { body: row.last_body, createdAt: row.last_at.toISOString() } : null,
  }));
}

export async function threadSummary(sql: Q, threadId: string): Promise<ThreadListItem | undefined> {
  const [row] = await q(sql)<ListRow[]>`
    select t.id, t.name, t.is_direct, t.pinned, t.created_at,
           (select count(*)::int from thread_members m where m.thread_id = t.id) as member_count,
           null as last_body, null as last_at
    from message_threads t where t.id = ${threadId}`;
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    isDirect: row.is_direct,
    pinned: row.pinned,
    memberCount: row.member_count,
    createdAt: row.created_at.toISOString(),
    lastMessage: null,
  };
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
 * Of her e-mail address only the part before the @ leaves the service: every signed-in
 * member reads these (docs/decisions.md, Community).
 */
const messageColumns = (sql: Sql) => sql`
  m.id, m.thread_id, m.sender_id, m.body, m.created_at, u.first_name,
  regexp_replace(u.email, '@[^@]*$', '') as email_local_part, u.profile_image_url`;

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

/** The thread with its newest messages, oldest first. */
export async function threadDetail(sql: Q, threadId: string, currentUserId: string): Promise<ThreadDetail | undefined> {
  const thread = await threadSummary(sql, threadId);
  if (!thread) return undefined;
  const rows = await q(sql)<MessageRow[]>`
    select * from (
      select ${messageColumns(q(sql))}
      from messages m left join user_directory u on u.user_id = m.sender_id
      where m.thread_id = ${threadId}
      order by m.created_at desc, m.id desc
      limit ${THREAD_MESSAGE_LIMIT}
    ) newest
    order by created_at, id`;
  const { lastMessage: _none, ...rest } = thread;
  return { thread: rest, messages: rows.map(toMessage), currentUserId };
}
