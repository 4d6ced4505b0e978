import { LibraryArticle } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const libraryArticleQueryKey = (id: string) => ['library', 'article', id] as const;

/** GET /api/library/card/{id}: the article with its sanitized body; 404 for an unknown (or malformed) id. */
export function getLibraryArticle(id: string, signal?: AbortSignal): Promise<LibraryArticle> {
  return api.get(`/api/library/card/${encodeURIComponent(id)}`, { schema: LibraryArticle, signal });
}

/** Like the cards: not cached, retried once (never a 404). */
export const libraryArticleQueryOptions = (id: string) =>
  queryOptions({
    queryKey: libraryArticleQueryKey(id),
    queryFn: ({ signal }) => getLibraryArticle(id, signal),
    staleTime: 0,
    gcTime: 0,
  });

export function useLibraryArticle(id: string) {
  return useQuery(libraryArticleQueryOptions(id));
}
