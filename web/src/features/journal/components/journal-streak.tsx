import { Flame } from 'lucide-react';
import { calendarDateIn } from '@sleepweave/contracts';
import { useUser } from '../../../lib/auth';
import { useJournalEntries } from '../api/get-journal-entries';
import { currentStreak } from '../streak';

/** Her current streak of consecutive days with an entry (see ../streak.ts for what counts). */
export function JournalStreak() {
  const { data: user } = useUser();
  const entries = useJournalEntries();
  if (!user || !entries.isSuccess) return null;

  const today = calendarDateIn(user.timezone, new Date());
  const { days, writtenToday } = currentStreak(
    entries.data.map((e) => e.date),
    today,
  );
  const note =
    days === 0
      ? 'Write today to start a new streak.'
      : writtenToday
        ? 'You have written today. See you tomorrow.'
        : 'Write today to keep it going.';

  return (
    <div
      role="status"
      aria-label="Current streak"
      className="flex items-center gap-3 rounded-2xl border border-sand-200 bg-sand-100/70 px-4 py-3 sm:w-64 sm:shrink-0"
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
