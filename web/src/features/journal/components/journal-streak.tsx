import { Flame } from 'lucide-react';
import { useEffect } from 'react';
import { calendarDateIn } from '@sleepweave/contracts';
import { useUser } from '../../../lib/auth';
import { useNightClock } from '../../../lib/use-night-clock';
import { cn } from '../../../lib/utils';
import { useJournalEntries } from '../api/get-journal-entries';
import { currentStreak } from '../streak';

/** Her current streak of consecutive days with an entry (see ../streak.ts for what counts). */
export function JournalStreak() {
  const { data: user } = useUser();
  const entries = useJournalEntries();
  // "today" read again at her midnight (a tab left open said "You have written today" of yesterday)
  const now = useNightClock(user?.timezone);
  const streak =
    user && entries.isSuccess
      ? currentStreak(
          entries.data.map((e) => e.date),
          calendarDateIn(user.timezone, now),
        )
      : null;
  // The list loads her newest entries a page at a time: while the streak runs back past
  // what is loaded (several entries a day), the older pages are loaded to count it whole.
  const goesOn = streak?.reachesOldest === true && entries.hasNextPage && !entries.isFetchingNextPage && !entries.isFetchNextPageError;
  const { fetchNextPage } = entries;
  useEffect(() => {
    if (goesOn) void fetchNextPage();
  }, [goesOn, fetchNextPage]);
  // while her entries load, the card's room is kept (empty): coming in, it pushed the form
  // down by 111 px on a phone, as she was about to tap into it
  if (!streak) return entries.isPending ? <StreakCard days={0} note="Write today to start a new streak." hidden /> : null;
  const { days, writtenToday } = streak;
  const note =
    days === 0
      ? 'Write today to start a new streak.'
      : writtenToday
        ? 'You have written today. See you tomorrow.'
        : 'Write today to keep it going.';
  return <StreakCard days={days} note={note} />;
}

function StreakCard({ days, note, hidden = false }: { days: number; note: string; hidden?: boolean }) {
  return (
    <div
      {...(hidden ? { 'aria-hidden': true } : { role: 'status', 'aria-label': 'Current streak' })}
      className={cn(
        'flex items-center gap-3 rounded-2xl border border-sand-200 bg-sand-100/70 px-4 py-3 sm:w-64 sm:shrink-0',
        hidden && 'invisible',
      )}
    >
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-white text-sand-600">
        <Flame aria-hidden="true" className="size-6" />
      </span>
      <span className="grid">
        {/* The spaces keep the three parts apart when read as one text (layout ignores them). */}
        <span className="text-sm font-medium text-night-700">Current streak</span>{' '}
        <span className="text-xl leading-tight font-semibold text-night-950">
          {days} {days === 1 ? 'day' : 'days'}
        </span>{' '}
        <span className="text-sm text-night-700">{note}</span>
      </span>
    </div>
  );
}
