import { useMutation } from '@tanstack/react-query';

/** The parts of an infinite query that loading more needs. */
interface PagedQuery {
  refetch: (options: { throwOnError: boolean }) => Promise<unknown>;
  fetchNextPage: (options: { throwOnError: boolean }) => Promise<unknown>;
}

/**
 * 'Load more' under a list. Ordered by something that moves (`orderMoves`: a thread's
 * activity, a participant's last log or compliance), the pages she has are read again
 * first, then the next one: something that moved up since was above the last page's cursor,
 * so the next page alone left it out (on no page at all); read again, it is on an earlier
 * page. That costs a request per page shown, one after another (2 s a click at the 30th page
 * of 1,500 users), so a list in an order that does not move (when members joined, names)
 * reads the next page only. Failing, it says so (`isError`) and keeps what is shown.
 */
export function useLoadMore(query: PagedQuery, { orderMoves }: { orderMoves: boolean }) {
  return useMutation({
    mutationFn: async () => {
      if (orderMoves) await query.refetch({ throwOnError: true });
      await query.fetchNextPage({ throwOnError: true });
    },
  });
}

/**
 * The items of the pages read, each once: one whose place moved between the reading of two
 * pages may come twice, and is shown where the later read put it.
 */
export function pagedItems<T extends { id: string }>(pages: { items: T[] }[]): T[] {
  const byId = new Map<string, T>();
  for (const item of pages.flatMap((page) => page.items)) {
    byId.delete(item.id);
    byId.set(item.id, item);
  }
  return [...byId.values()];
}
