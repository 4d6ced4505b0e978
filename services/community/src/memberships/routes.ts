import { CreateMessageRequest, Message, THREAD_NOT_FOUND_MESSAGE } from '@sleepweave/contracts';
import { createdId, notFound, perUserLimit, readAfterWrite, requestMetadata, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { CommunityContext } from '../context.ts';
import { messagePostLimitMessage } from '../rate-limits.ts';
import { findMessage } from '../threads/queries.ts';
import { postMessage } from './commands.ts';

export async function membershipRoutes(app: ServiceApp, ctx: CommunityContext): Promise<void> {
  const { MESSAGE_POST_LIMIT_PER_MINUTE: perMinute } = ctx.config;

  /** Plain text, stored as typed (trimmed); the screen renders it as text, never as HTML. */
  app.post(
    '/api/community/message',
    {
      schema: { body: CreateMessageRequest, response: { 201: Message } },
      config: perUserLimit(perMinute, '1 minute', messagePostLimitMessage(perMinute)),
    },
    async (request, reply) => {
      const { sub } = requireUser(request);
      const messageId = createdId(request, 'message', sub);
      const { threadId, body } = request.body;
      await postMessage(ctx, { threadId, userId: sub, messageId, body }, requestMetadata(request));
      return reply
        .status(201)
        .send(await readAfterWrite(ctx.sql, sub, await findMessage(ctx.sql, messageId), () => notFound(THREAD_NOT_FOUND_MESSAGE)));
    },
  );
}
