import { randomUUID } from 'node:crypto';
import { LibraryArticle, LibraryArticleInput, LibraryCardList, LibrarySearchQuery } from '@sleepweave/contracts';
import { ConcurrencyError } from '@sleepweave/event-store';
import { badRequest, conflict, notFound, requireAdmin, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { LibraryContext } from '../context.ts';
import { articleStreamId } from './article.ts';
import { ArticleBodyEmpty, ArticleNotFound, articleDecider, type ArticleCommand } from './business-logic.ts';
import { findArticle, isUuid, listCards } from './queries.ts';

const ARTICLE_NOT_FOUND = "Sorry, we couldn't find the article you're looking for.";
const IdParams = z.object({ id: z.string() });

/** Runs a command against an article and maps the domain's refusals to HTTP errors. */
async function handleArticle(ctx: LibraryContext, request: FastifyRequest, articleId: string, command: ArticleCommand) {
  try {
    await ctx.store.handle(articleStreamId(articleId), articleDecider, command, {
      metadata: { correlationId: request.correlationId, userId: request.user?.sub ?? null },
    });
  } catch (err) {
    if (err instanceof ArticleNotFound) throw notFound(ARTICLE_NOT_FOUND);
    if (err instanceof ArticleBodyEmpty) throw badRequest(`bodyHtml: ${err.message}`);
    if (err instanceof ConcurrencyError)
      throw conflict('Someone else changed this article at the same moment. Please reload it and try again.');
    throw err;
  }
}

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
      await handleArticle(ctx, request, articleId, {
        type: 'PublishArticle',
        data: { articleId, content: request.body, by: admin.sub, now: new Date() },
      });
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
      await handleArticle(ctx, request, articleId.toLowerCase(), {
        type: 'ReviseArticle',
        data: { articleId: articleId.toLowerCase(), content: request.body, by: admin.sub, now: new Date() },
      });
      return (await findArticle(ctx.sql, articleId))!;
    },
  );
}
