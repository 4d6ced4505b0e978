import { randomUUID } from 'node:crypto';
import { LibraryArticle, LibraryArticleInput, LibraryCardList, LibrarySearchQuery } from '@sleepweave/contracts';
import {
  badRequest,
  cursorParam,
  limitParam,
  NEXT_CURSOR_HEADER,
  notFound,
  requestMetadata,
  requireAdmin,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { LibraryContext } from '../context.ts';
import { ARTICLE_NOT_FOUND, publishArticle, reviseArticle } from './commands.ts';
import { IMAGES_PATH } from './images.ts';
import { libraryImagesIn } from './sanitize.ts';
import { findArticle, isUuid, LIBRARY_CURSOR_MAX, LIBRARY_PAGE_LIMIT, listCards } from './queries.ts';

/** The spec's optional search, and optional keyset paging (docs/architecture.md, Paging): 100 cards a page by default and at most. */
const CardsQuery = LibrarySearchQuery.extend({
  limit: limitParam(LIBRARY_PAGE_LIMIT, LIBRARY_PAGE_LIMIT),
  cursor: cursorParam(LIBRARY_CURSOR_MAX),
});

const IdParams = z.object({ id: z.string() });

export async function articleRoutes(app: ServiceApp, ctx: LibraryContext): Promise<void> {
  app.get('/api/library/cards', { schema: { querystring: CardsQuery, response: { 200: LibraryCardList } } }, async (request, reply) => {
    requireUser(request);
    const { search, limit, cursor } = request.query;
    const page = await listCards(ctx.sql, search, { limit, cursor });
    if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.items;
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
  // Its images ones the library has, the card's and the body's (the pattern alone took a
  // file that is not there: a broken image for every reader).
  const requireKnownImages = ({ imagePath, bodyHtml }: { imagePath: string; bodyHtml: string }) => {
    for (const [field, path] of [['imagePath', imagePath], ...libraryImagesIn(bodyHtml).map((src) => ['bodyHtml', src])]) {
      if (!ctx.images.has(path!.slice(IMAGES_PATH.length + 1))) {
        throw badRequest(`${field}: There is no image ${path} in the library; choose one of ${[...ctx.images.keys()].sort().join(', ')}`);
      }
    }
  };
  // An article read again after its write: gone only if another admin deleted it meanwhile.
  const articleAfterWrite = async (articleId: string) => {
    const article = await findArticle(ctx.sql, articleId);
    if (!article) throw notFound(ARTICLE_NOT_FOUND);
    return article;
  };

  app.post(
    '/api/library/cards',
    { ...adminOnly, schema: { body: LibraryArticleInput, response: { 201: LibraryArticle } } },
    async (request, reply) => {
      const admin = requireAdmin(request);
      requireKnownImages(request.body);
      const articleId = randomUUID();
      await publishArticle(ctx, { articleId, content: request.body, by: admin.sub, now: new Date() }, requestMetadata(request));
      return reply.status(201).send(await articleAfterWrite(articleId));
    },
  );

  app.put(
    '/api/library/card/:id',
    { ...adminOnly, schema: { params: IdParams, body: LibraryArticleInput, response: { 200: LibraryArticle } } },
    async (request) => {
      const admin = requireAdmin(request);
      const articleId = request.params.id;
      if (!isUuid(articleId)) throw notFound(ARTICLE_NOT_FOUND);
      requireKnownImages(request.body);
      const input = { articleId: articleId.toLowerCase(), content: request.body, by: admin.sub, now: new Date() };
      await reviseArticle(ctx, input, requestMetadata(request));
      return articleAfterWrite(articleId);
    },
  );
}
