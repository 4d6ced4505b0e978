import { ThreadDetail, type Message } from '@sleepweave/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const threadQueryKey = (threadId: string) => ['community', 'thread', threadId] as const;

/** The most messages one answer carries (the server's default and maximum). */
export const THREAD_PAGE_LIMIT = 500;

const threadUrl = (threadId: string, query = '') => `/api/community/thread/${encodeURIComponent(threadId)}${query}`;

/** GET /api/community/thread/{id}: opening a public thread makes her a member. Its newest 500 messages. */
export const getThread = (threadId: string, signal?: AbortSignal) => api.get(threadUrl(threadId), { schema: ThreadDetail, signal });

/** GET …?before=: the page of messages before the cursor `before`. */
const getEarlier = (threadId: string, before: string, signal?: AbortSignal) =>
  api.get(threadUrl(threadId, `?before=${encodeURIComponent(before)}`), { schema: ThreadDetail, signal });

/** Whether message `a` comes before `b` in the thread (time, then id: the server's order). */
const comesBefore = (a: Message, b: Message) => a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);

/**
 * The thread: its newest page, then, when it is loaded again, earlier pages until the oldest
 * message she had is covered. (Loaded again as one page, a thread of 532 she had all of went
 * back to its newest 500 when the network came back, and the message she was reading was
 * gone.)
 */
async function loadThread(threadId: string, oldest: Message | undefined, signal: AbortSignal): Promise<ThreadDetail> {
  const page = await getThread(threadId, signal);
  let { messages, before } = page;
  while (oldest && before && messages[0] && comesBefore(oldest, messages[0])) {
    const earlier = await getEarlier(threadId, before, signal);
    messages = merge(earlier.messages, messages);
    before = earlier.before;
  }
  return { ...page, messages, before };
}

export const threadQueryOptions = (threadId: string) =>
  queryOptions({
    queryKey: threadQueryKey(threadId),
    queryFn: ({ signal, client }) => loadThread(threadId, client.getQueryData<ThreadDetail>(threadQueryKey(threadId))?.messages[0], signal),
  });

/**
 * How long a catch-up waits for its answer, or for a reload under way: one request stuck on
 * a network that went away (TCP can take minutes to say so) must not hold up the catch-up
 * that the next connection's join asks for.
 */
export const CATCH_UP_TIMEOUT_MS = 10_000;

/** Waits for `promise`, at most `ms`. */
async function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export const useThread = (threadId: string) => useQuery(threadQueryOptions(threadId));

/** Messages by id, oldest first (time, then id: the server's order). */
function merge(...lists: ThreadDetail['messages'][]): ThreadDetail['messages'] {
  const byId = new Map(lists.flat().map((m) => [m.id, m]));
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/**
 * What is new in a thread she has open: `?after=` the cursor of the answer she has, merged
 * into it by id (docs/community.md, "Growth"): a new message costs a viewer that message,
 * not the whole thread. Without a loaded thread, when more came than one answer carries,
 * or when it has fewer members than she saw (only a deleted account leaves a thread, and
 * her messages went with her), the thread is simply loaded again (as far back as she had it).
 */
export async function catchUpThread(queryClient: QueryClient, threadId: string): Promise<void> {
  const key = threadQueryOptions(threadId).queryKey;
  // A reload of the whole thread under way lands first (fetchQuery joins it): landing after
  // this catch-up, it would put back the messages as they were when it was sent.
  if (queryClient.isFetching({ queryKey: key, exact: true }) > 0) {
    await atMost(queryClient.fetchQuery(threadQueryOptions(threadId)), CATCH_UP_TIMEOUT_MS);
    // still stuck: it would land after this catch-up, older than it
    await queryClient.cancelQueries({ queryKey: key, exact: true });
  }
  const have = queryClient.getQueryData(key);
  if (!have) {
    await queryClient.invalidateQueries({ queryKey: key });
    return;
  }
  const fresh = await api.get(threadUrl(threadId, `?after=${encodeURIComponent(have.after)}`), {
    schema: ThreadDetail,
    signal: AbortSignal.timeout(CATCH_UP_TIMEOUT_MS),
  });
  if (fresh.messages.length >= THREAD_PAGE_LIMIT || fresh.thread.memberCount < have.thread.memberCount) {
    await queryClient.invalidateQueries({ queryKey: key });
    return;
  }
  queryClient.setQueryData(key, (current) =>
    current ? { ...current, thread: fresh.thread, messages: merge(current.messages, fresh.messages), after: fresh.after } : current,
  );
}

/**
 * Earlier messages (`?before=`), put before the ones she has; dropped if the thread was
 * loaded again meanwhile (its oldest message is another now: put before it, they would
 * leave a gap that no later page fills).
 */
export async function loadEarlierMessages(queryClient: QueryClient, threadId: string): Promise<void> {
  const key = threadQueryOptions(threadId).queryKey;
  const have = queryClient.getQueryData(key);
  if (!have?.before) return;
  const earlier = await getEarlier(threadId, have.before);
  queryClient.setQueryData(key, (current) =>
    current && current.before === have.before
      ? { ...current, messages: merge(earlier.messages, current.messages), before: earlier.before }
      : current,
  );
}
