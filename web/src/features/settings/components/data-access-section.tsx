import type { MyDataAccessEntry } from '@sleepweave/contracts';
import { LoadMore } from '../../../components/ui/load-more';
import { useUser } from '../../../lib/auth';
import { formatInstant } from '../../../lib/date-format';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { useDataAccess } from '../api/get-data-access';

export const NO_DATA_ACCESS = 'No administrator has looked at your data yet.';

const WHAT: Record<MyDataAccessEntry['action'], string> = {
  participant_viewed: 'viewed your profile and sleep logs',
  users_exported: 'exported the users list, which includes your profile',
  sleep_exported: 'exported the sleep study data, which includes your nights (under your research id)',
  research_downloaded: 'downloaded the research export, which includes your nights (under your research id)',
};

function sentence(entry: MyDataAccessEntry): string {
  return `${entry.by ?? 'A former administrator'} ${WHAT[entry.action]}`;
}

/** Settings: who among the study's administrators looked at her data, and when. */
export function DataAccessSection() {
  const access = useDataAccess();
  // on her profile's clock (Settings is where she sets it)
  const timeZone = useUser().data?.timezone;
  if (access.isPending) return <LoadingState inline text="Loading who looked at your data..." />;
  if (!access.data) {
    return (
      <ErrorState
        inline
        text="We couldn't load this list. Please try again."
        error={access.error}
        onRetry={() => void access.refetch()}
        retrying={access.isFetching}
      />
    );
  }
  const entries = access.data;
  if (entries.length === 0) return <p className="text-base text-night-700">{NO_DATA_ACCESS}</p>;
  return (
    <div className="grid gap-4">
      <ul className="grid gap-2" aria-label="Who looked at your data">
        {entries.map((entry) => (
          <li key={entry.id} className="grid gap-0.5 rounded-xl bg-night-50 px-4 py-3 text-base">
            <span className="text-night-950">{sentence(entry)}</span>
            <time dateTime={entry.at} className="text-sm text-night-700">
              {formatInstant(entry.at, timeZone)}
            </time>
          </li>
        ))}
      </ul>
      <LoadMore
        hasMore={access.hasNextPage}
        pending={access.isFetchingNextPage}
        failed={access.isFetchNextPageError}
        onLoad={() => void access.fetchNextPage()}
        label="Show older"
        pendingLabel="Loading older..."
        errorText="Older entries could not be loaded. Please try again."
      />
    </div>
  );
}
