import { LoadMore } from '../../../components/ui/load-more';
import { CHECK_CONNECTION, EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { useLoadMore } from '../../../lib/use-load-more';
import { useThreads } from '../api/get-threads';
import { useNow } from '../hooks/use-now';
import { CommunityStatsCard } from './community-stats-card';
import { DirectMessagesCard } from './direct-messages-card';
import { NewThreadDialog } from './new-thread-dialog';
import { ThreadCard } from './thread-card';

/** /community: Discussion Threads, Community Stats and Direct Messages. */
export function CommunityScreen() {
  const threads = useThreads();
  // the most recently active first: a thread moves up with each message
  const loadMore = useLoadMore(threads, { orderMoves: true });
  const now = useNow();

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <header className="max-w-2xl">
        <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Community</h1>
        <p className="mt-2 text-lg text-night-700">Share experiences and find support among women on the same path.</p>
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="threads-heading" className="grid content-start gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="threads-heading" className="text-2xl font-semibold text-night-950">
              Discussion Threads
            </h2>
            <NewThreadDialog />
          </div>

          {threads.isPending ? (
            // on a phone the side cards are below the threads: the room a page of them takes is
            // kept while they load, so that the cards do not show under "Loading threads..."
            // and jump away as the threads come (a layout shift of 0.5)
            <div className="min-h-[150dvh] lg:min-h-0">
              <LoadingState inline text="Loading threads..." />
            </div>
          ) : threads.data === undefined ? (
            <ErrorState
              inline
              text={`The threads could not be loaded. ${CHECK_CONNECTION}`}
              error={threads.error}
              onRetry={() => void threads.refetch()}
              retrying={threads.isFetching}
            />
          ) : threads.data.length === 0 ? (
            <EmptyState text="No threads yet. Create your first thread!" />
          ) : (
            <>
              <ul className="grid gap-4" aria-label="Threads">
                {threads.data.map((thread) => (
                  <li key={thread.id}>
                    <ThreadCard thread={thread} now={now} />
                  </li>
                ))}
              </ul>
              <LoadMore
                hasMore={threads.hasNextPage}
                pending={loadMore.isPending}
                failed={loadMore.isError}
                onLoad={() => loadMore.mutate()}
                label="Load more threads"
                pendingLabel="Loading more threads..."
                errorText="More threads could not be loaded. Please try again."
              />
            </>
          )}
        </section>

        <aside className="grid content-start gap-6" aria-label="Community side panel">
          <CommunityStatsCard />
          <DirectMessagesCard />
        </aside>
      </div>
    </div>
  );
}
