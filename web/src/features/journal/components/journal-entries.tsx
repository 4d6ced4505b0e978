import { calendarDateIn, JOURNAL_FIELDS, type JournalEntry } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { CircleCheck } from 'lucide-react';
import { LoadMore } from '../../../components/ui/load-more';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { useUser } from '../../../lib/auth';
import { useJournalEntries } from '../api/get-journal-entries';
import { groupEntriesByDay, type JournalDay } from '../days';
import { dateTimeFormat } from '../../../lib/date-format';

/** "Saturday, November 21, 2026" from a calendar date. */
export const longDate = (date: string) => format(parseISO(date), 'EEEE, MMMM d, yyyy');

/**
 * 'Recent Entries': her entries, newest first, one card per day (several saves on a day are
 * that day's reflections, under one date; docs/decisions.md, Journal). A failed reload
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
        <>
          <ul className="grid gap-4">
            {groupEntriesByDay(entries.data).map((day) => (
              <li key={day.date}>
                <DayCard day={day} timezone={timezone} />
              </li>
            ))}
          </ul>
          <LoadMore
            hasMore={entries.hasNextPage}
            pending={entries.isFetchingNextPage}
            failed={entries.isFetchNextPageError}
            onLoad={() => void entries.fetchNextPage()}
            label="Load older entries"
            pendingLabel="Loading older entries..."
            errorText="Older entries could not be loaded. Please try again."
          />
        </>
      )}
    </section>
  );
}

/**
 * The time she wrote it, on her clock (her profile timezone): tells apart entries of one day.
 * With the day too when her clock now puts it on another day than the entry's (dated in the
 * zone she had when she wrote it, and she has moved since).
 */
function writtenAt(createdAt: string, timezone: string | undefined, entryDate: string): string {
  const instant = new Date(createdAt);
  const otherDay = timezone !== undefined && calendarDateIn(timezone, instant) !== entryDate;
  return dateTimeFormat('en-US', {
    ...(otherDay ? { month: 'short', day: 'numeric' } : {}),
    hour: 'numeric',
    minute: '2-digit',
    ...(timezone ? { timeZone: timezone } : {}),
  }).format(instant);
}

function DayCard({ day, timezone }: { day: JournalDay; timezone: string | undefined }) {
  return (
    <article
      aria-label={longDate(day.date)}
      className="rounded-3xl border border-night-100 bg-white p-5 shadow-sm shadow-night-900/5 sm:p-6"
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-semibold text-night-950">
          <time dateTime={day.date}>{longDate(day.date)}</time>
        </h3>
        {day.complete ? (
          <span
            title="All three reflections written"
            className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-3 py-1 text-sm font-medium text-emerald-800 ring-1 ring-emerald-200"
          >
            <CircleCheck aria-hidden="true" className="size-4" />
            Complete
          </span>
        ) : null}
      </header>
      <ol className="mt-3 grid divide-y divide-night-100">
        {day.entries.map((entry) => (
          <li key={entry.id} className="grid gap-3 py-3 first:pt-0 last:pb-0">
            <EntryReflections entry={entry} timezone={timezone} />
          </li>
        ))}
      </ol>
    </article>
  );
}

/** One save of the day: when she wrote it, and the reflections she wrote (blank ones are not shown). */
function EntryReflections({ entry, timezone }: { entry: JournalEntry; timezone: string | undefined }) {
  return (
    <>
      <p className="text-sm text-night-600">
        Written at <time dateTime={entry.createdAt}>{writtenAt(entry.createdAt, timezone, entry.date)}</time>
      </p>
      <dl className="grid gap-4">
        {JOURNAL_FIELDS.filter(({ name }) => entry[name] !== '').map(({ name, label }) => (
          <div key={name} className="grid gap-1">
            <dt className="text-sm font-semibold tracking-wide text-sand-700 uppercase">{label}</dt>
            {/* her words in their own direction: Hebrew or Arabic right to left (it was set left to right, "123 English" before them) */}
            <dd dir="auto" className="text-base whitespace-pre-wrap text-night-900 [overflow-wrap:anywhere]">
              {entry[name]}
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
