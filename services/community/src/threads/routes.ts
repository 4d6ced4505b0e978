import { CreateThreadRequest, THREAD_NOT_FOUND_MESSAGE, ThreadDetail, ThreadList, ThreadListItem, Uuid } from '@sleepweave/contracts';
import {
  badRequest,
  createdId,
  cursorParam,
  decodeCursor,
  limitParam,
  NEXT_CURSOR_HEADER,
  notFound,
  keyReused,
  perUserLimit,
  readAfterWrite,
  requestMetadata,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import { z } from 'zod';
import type { CommunityContext } from '../context.ts';
import { threadCreateLimitMessage } from '../rate-limits.ts';
import { openThread } from '../memberships/commands.ts';
import { ThreadAlreadyExists } from './business-logic.ts';
import { createPublicThread } from './commands.ts';
import {
  listThreads,
  mayAccess,
  MessageCursor,
  THREAD_LIST_LIMIT,
  THREAD_MESSAGE_LIMIT,
  threadDetail,
  ThreadListCursor,
  threadSummary,
} from './queries.ts';

/** Any id in the path: a malformed one is simply a thread that does not exist. */
const ThreadParams = z.object({ id: z.string().max(100) });
const isUuid = (value: string) => Uuid.safeParse(value).success;
/** Growth (docs/community.md): optional paging; without it, the answers of before. */
const ThreadListQuery = z.object({ limit: limitParam(THREAD_LIST_LIMIT, THREAD_LIST_LIMIT), cursor: cursorParam() });
const ThreadDetailQuery = z.object({
  limit: limitParam(THREAD_MESSAGE_LIMIT, THREAD_MESSAGE_LIMIT),
  after: cursorParam(),
  before: cursorParam(),
});

export async function threadRoutes(app: ServiceApp, ctx: CommunityContext): Promise<void> {
  /** The pinned threads, then the most recently active: 100 a page (`limit`, `cursor`; next in X-Next-Cursor). */
  app.get('/api/community/threads', { schema: { querystring: ThreadListQuery, response: { 200: ThreadList } } }, async (request, reply) => {
    const { limit, cursor } = request.query;
    const page = await listThreads(ctx.sql, requireUser(request).sub, {
      limit,
      cursor: cursor === undefined ? undefined : decodeCursor(cursor, ThreadListCursor),
    });
    if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.items;
  });

  const { THREAD_CREATE_LIMIT_PER_HOUR: threadsPerHour } = ctx.config;
  app.post(
    '/api/community/thread',
    {
      schema: { body: CreateThreadRequest, response: { 201: ThreadListItem } },
      config: perUserLimit(threadsPerHour, '1 hour', threadCreateLimitMessage(threadsPerHour)),
    },
    async (request, reply) => {
      const { sub } = requireUser(request);
      const threadId = createdId(request, 'thread', sub);
      try {
        await createPublicThread(ctx, { threadId, name: request.body.name, creatorId: sub, now: new Date() }, requestMetadata(request));
      } catch (err) {
        // sent again with its Idempotency-Key: the thread the first try made, if it is this one
        if (!(err instanceof ThreadAlreadyExists)) throw err;
        const [made] = await ctx.sql<{ created_by: string | null; name: string }[]>`
          select created_by, name from message_threads where id = ${threadId}`;
        if (!made || made.created_by !== sub || made.name !== request.body.name) throw keyReused();
      }
      return reply
        .status(201)
        .send(await readAfterWrite(ctx.sql, sub, await threadSummary(ctx.sql, threadId), () => notFound(THREAD_NOT_FOUND_MESSAGE)));
    },
  );

  /** Opening a public thread makes her a member; a direct thread answers 404 to anyone but its members. */
  app.get(
    '/api/community/thread/:id',
    { schema: { params: ThreadParams, querystring: ThreadDetailQuery, response: { 200: ThreadDetail } } },
    async (request) => {
      const { sub } = requireUser(request);
      const threadId = request.params.id.toLowerCase(); // its streams are named by it, as text
      const { limit, after, before } = request.query;
      if (after !== undefined && before !== undefined) throw badRequest('Give either after or before, not both');
      const page = {
        limit,
        after: after === undefined ? undefined : decodeCursor(after, MessageCursor, 'after'),
        before: before === undefined ? undefined : decodeCursor(before, MessageCursor, 'before'),
      };
      if (!isUuid(threadId)) throw notFound(THREAD_NOT_FOUND_MESSAGE);
      await openThread(ctx, { threadId, userId: sub, now: new Date() }, requestMetadata(request));
      const detail = await threadDetail(ctx.sql, threadId, sub, page);
      if (!detail) throw notFound(THREAD_NOT_FOUND_MESSAGE);
      return detail;
    },
  );

  /**
   * Internal (not routed by the gateway): may the caller (her Bearer token) follow this
   * thread live? The gateway asks before it lets a socket join a thread. 204 yes, 404 no.
   * It changes nothing: joining for live updates is not opening the thread.
   */
  app.get('/internal/threads/:id/access', { schema: { params: ThreadParams } }, async (request, reply) => {
    const { sub } = requireUser(request);
    const threadId = request.params.id.toLowerCase();
    if (!isUuid(threadId) || !(await mayAccess(ctx.sql, threadId, sub))) throw notFound(THREAD_NOT_FOUND_MESSAGE);
    return reply.status(204).send();
  });
}
