import { JOURNAL_FIELDS, type JournalEntry } from '@sleepweave/contracts';

export interface JournalDay {
  date: string;
  /** Her entries of the day, as listed (the latest written first). */
  entries: JournalEntry[];
  /** All three reflections written that day, in one entry or across several. */
  complete: boolean;
}

/**
 * Her entries under one heading per day, days in the order the list gives them (newest
 * first). Several saves on one day are one day of reflections, so the day is Complete
 * when, together, they hold all three. Pure.
 */
export function groupEntriesByDay(entries: JournalEntry[]): JournalDay[] {
  const days: JournalDay[] = [];
  const byDate = new Map<string, JournalDay>();
  for (const entry of entries) {
    let day = byDate.get(entry.date);
    if (!day) {
      day = { date: entry.date, entries: [], complete: false };
      byDate.set(entry.date, day);
      days.push(day);
    }
    day.entries.push(entry);
  }
  for (const day of days) {
    day.complete = JOURNAL_FIELDS.every(({ name }) => day.entries.some((entry) => entry[name].trim() !== ''));
  }
  return days;
}
