import { randomUUID } from 'node:crypto';
import { CreateThreadRequest, THREAD_NOT_FOUND_MESSAGE, ThreadDetail, ThreadList, ThreadListItem, Uuid } from '@sleepweave/contracts';
import { notFound, requestMetadata, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import { z } from 'zod';
import type { CommunityContext } from '../context.ts';
import { perMemberLimit, threadCreateLimitMessage } from '../rate-limits.ts';
import { openThread } from '../memberships/commands.ts';
import { createPublicThread } from './commands.ts';
import { listThreads, mayAccess, threadDetail, threadSummary } from './queries.ts';

/** Any id in the path: a malformed one is simply a thread that does not exist. */
const ThreadParams = z.object({ id: z.string().max(100) });
const isUuid = (value: string) => Uuid.safeParse(value).success;

export async function threadRoutes(app: ServiceApp, ctx: CommunityContext): Promise<void> {
  /** The pinned threads, then the most recently active: THREAD_LIST_LIMIT (100) in all. */
  app.get('/api/community/threads', { schema: { response: { 200: ThreadList } } }, async (request) => {
    return listThreads(ctx.sql, requireUser(request).sub);
  });

  const { THREAD_CREATE_LIMIT_PER_HOUR: threadsPerHour } = ctx.config;
  app.post(
    '/api/community/thread',
    {
      schema: { body: CreateThreadRequest, response: { 201: ThreadListItem } },
      config: perMemberLimit(threadsPerHour, '1 hour', threadCreateLimitMessage(threadsPerHour)),
    },
    async (request, reply) => {
      const { sub } = requireUser(request);
      const threadId = randomUUID();
      await createPublicThread(ctx, { threadId, name: request.body.name, creatorId: sub, now: new Date() }, requestMetadata(request));
      return reply.status(201).send((await threadSummary(ctx.sql, threadId))!);
    },
  );

  /** Opening a public thread makes her a member; a direct thread answers 404 to anyone but its members. */
  app.get('/api/community/thread/:id', { schema: { params: ThreadParams, response: { 200: ThreadDetail } } }, async (request) => {
    const { sub } = requireUser(request);
    const threadId = request.params.id;
    if (!isUuid(threadId)) throw notFound(THREAD_NOT_FOUND_MESSAGE);
    await openThread(ctx, { threadId, userId: sub, now: new Date() }, requestMetadata(request));
    const detail = await threadDetail(ctx.sql, threadId, sub);
    if (!detail) throw notFound(THREAD_NOT_FOUND_MESSAGE);
    return detail;
  });

  /**
   * Internal (not routed by the gateway): may the caller (her Bearer token) follow this
   * thread live? The gateway asks before it lets a socket join a thread. 204 yes, 404 no.
   * It changes nothing: joining for live updates is not opening the thread.
   */
  app.get('/internal/threads/:id/access', { schema: { params: ThreadParams } }, async (request, reply) => {
    const { sub } = requireUser(request);
    const threadId = request.params.id;
    if (!isUuid(threadId) || !(await mayAccess(ctx.sql, threadId, sub))) throw notFound(THREAD_NOT_FOUND_MESSAGE);
    return reply.status(204).send();
  });
}
