import { randomUUID } from 'node:crypto';
import { LibraryArticle, LibraryArticleInput, LibraryCardList, LibrarySearchQuery } from '@sleepweave/contracts';
import { notFound, requestMetadata, requireAdmin, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { LibraryContext } from '../context.ts';
import { ARTICLE_NOT_FOUND, publishArticle, reviseArticle } from './commands.ts';
import { findArticle, isUuid, listCards } from './queries.ts';

const IdParams = z.object({ id: z.string() });

export async function articleRoutes(app: ServiceApp, ctx: LibraryContext): Promise<void> {
  app.get('/api/library/cards', { schema: { querystring: LibrarySearchQuery, response: { 200: LibraryCardList } } }, async (request) => {
    requireUser(request);
    return listCards(ctx.sql, request.query.search);
  });

  // A malformed id names no article: 404, like an unknown one (never a 400 or a 500).
  app.get('/api/library/card/:id', { schema: { params: IdParams, response: { 200: LibraryArticle } } }, async (request) => {
    requireUser(request);
    const article = await findArticle(ctx.sql, request.params.id);
    if (!article) throw notFound(ARTICLE_NOT_FOUND);
    return article;
  });

  // Admins only (checked before the body is looked at; the gateway checks the role too).
  const adminOnly = { onRequest: async (request: FastifyRequest) => void requireAdmin(request) };

  app.post(
    '/api/library/cards',
    { ...adminOnly, schema: { body: LibraryArticleInput, response: { 201: LibraryArticle } } },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const articleId = randomUUID();
      await publishArticle(ctx, { articleId, content: request.body, by: admin.sub, now: new Date() }, requestMetadata(request));
      return reply.status(201).send((await findArticle(ctx.sql, articleId))!);
    },
  );

  app.put(
    '/api/library/card/:id',
    { ...adminOnly, schema: { params: IdParams, body: LibraryArticleInput, response: { 200: LibraryArticle } } },
    async (request) => {
      const admin = requireAdmin(request);
      const articleId = request.params.id;
      if (!isUuid(articleId)) throw notFound(ARTICLE_NOT_FOUND);
      const input = { articleId: articleId.toLowerCase(), content: request.body, by: admin.sub, now: new Date() };
      await reviseArticle(ctx, input, requestMetadata(request));
      return (await findArticle(ctx.sql, articleId))!;
    },
  );
}
