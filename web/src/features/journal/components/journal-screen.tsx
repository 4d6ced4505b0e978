import { Card } from '../../../components/ui/card';
import { JournalEntries } from './journal-entries';
import { JournalExport } from './journal-export';
import { JournalForm } from './journal-form';
import { JournalStreak } from './journal-streak';

/** /journal: today's reflections, then her recent entries. */
export function JournalScreen() {
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Daily Journal</h1>
          <p className="mt-3 text-lg text-night-700">
            A few quiet minutes for an affirmation, something you are grateful for, and something you are ready to let go.
          </p>
        </div>
        <JournalStreak />
      </header>

      <Card className="p-6 sm:p-8">
        <h2 className="mb-5 text-2xl font-semibold text-night-950">Today&apos;s reflections</h2>
        <JournalForm />
      </Card>

      <JournalExport />

      <JournalEntries />
    </div>
  );
}
