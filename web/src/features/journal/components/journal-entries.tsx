import { isCompleteEntry, JOURNAL_FIELDS, type JournalEntry } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { CircleCheck } from 'lucide-react';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { useUser } from '../../../lib/auth';
import { useJournalEntries } from '../api/get-journal-entries';

/** "Saturday, November 21, 2026" from a calendar date. */
export const longDate = (date: string) => format(parseISO(date), 'EEEE, MMMM d, yyyy');

/**
 * 'Recent Entries': her entries, newest first (docs/product.md §2, /journal). A failed reload
 * keeps the list she has; the error shows only when there is nothing to show.
 */
export function JournalEntries() {
  const entries = useJournalEntries();
  const timezone = useUser().data?.timezone;

  return (
    <section aria-labelledby="recent-entries" className="grid gap-4">
      <h2 id="recent-entries" className="text-2xl font-semibold text-night-950">
        Recent Entries
      </h2>
      {entries.isPending ? (
        <LoadingState inline text="Loading entries..." className="py-0" />
      ) : entries.data === undefined ? (
        <ErrorState
          inline
          text="We couldn't load your journal entries. Please try again."
          error={entries.error}
          onRetry={() => void entries.refetch()}
          retrying={entries.isFetching}
        />
      ) : entries.data.length === 0 ? (
        <EmptyState text="No journal entries yet. Start your first entry above!" className="py-6" />
      ) : (
        <ul className="grid gap-4">
          {entries.data.map((entry) => (
            <li key={entry.id}>
              <EntryCard entry={entry} timezone={timezone} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The time she wrote it, on her clock (her profile timezone): tells apart entries of one day. */
function writtenAt(createdAt: string, timezone: string | undefined): string {
  return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', ...(timezone ? { timeZone: timezone } : {}) }).format(
    new Date(createdAt),
  );
}

function EntryCard({ entry, timezone }: { entry: JournalEntry; timezone: string | undefined }) {
  const complete = isCompleteEntry(entry);
  return (
    <article
      aria-label={longDate(entry.date)}
      className="rounded-3xl border border-night-100 bg-white p-5 shadow-sm shadow-night-900/5 sm:p-6"
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-baseline gap-x-3">
          <h3 className="text-lg font-semibold text-night-950">
            <time dateTime={entry.date}>{longDate(entry.date)}</time>
          </h3>
          <time dateTime={entry.createdAt} className="text-sm text-night-600">
            {writtenAt(entry.createdAt, timezone)}
          </time>
        </div>
        {complete ? (
          <span
            title="All three reflections written"
            className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-3 py-1 text-sm font-medium text-emerald-800 ring-1 ring-emerald-200"
          >
            <CircleCheck aria-hidden="true" className="size-4" />
            Complete
          </span>
        ) : null}
      </header>
      <dl className="mt-4 grid gap-4">
        {JOURNAL_FIELDS.filter(({ name }) => entry[name] !== '').map(({ name, label }) => (
          <div key={name} className="grid gap-1">
            <dt className="text-sm font-semibold tracking-wide text-sand-700 uppercase">{label}</dt>
            <dd className="text-base whitespace-pre-wrap text-night-900 [overflow-wrap:anywhere]">{entry[name]}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
