import { z } from 'zod';
import { CalendarDate, hasSomethingToSee, Uuid } from './common.ts';

/** docs/product.md §5: each reflection is at most this long (in characters: code points, as zod counts them here). */
export const JOURNAL_FIELD_MAX_LENGTH = 2000;

/** The three reflections of an entry, with the labels the form shows. */
export const JOURNAL_FIELDS = [
  { name: 'affirmation', label: "Today's Affirmation" },
  { name: 'gratitude', label: 'Gratitude' },
  { name: 'forgiveness', label: 'Forgiveness' },
] as const;
export type JournalField = (typeof JOURNAL_FIELDS)[number]['name'];

export const JOURNAL_ENTRY_EMPTY_MESSAGE = "Please write at least one of Today's Affirmation, Gratitude or Forgiveness.";

const Reflection = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(JOURNAL_FIELD_MAX_LENGTH, `${label} must be at most 2,000 characters`)
    .default('');

/**
 * POST /api/journal/entry. The fields default to empty strings (docs/product.md §5); at least one
 * must hold more than whitespace. User and date are set by the server: a `userId` or
 * `date` sent by the client is dropped here.
 */
export const JournalEntryRequest = z
  .object({
    affirmation: Reflection("Today's Affirmation"),
    gratitude: Reflection('Gratitude'),
    forgiveness: Reflection('Forgiveness'),
  })
  // something to see in one of them (a field of only U+200B and the like shows as nothing)
  .refine((entry) => hasSomethingToSee(entry.affirmation) || hasSomethingToSee(entry.gratitude) || hasSomethingToSee(entry.forgiveness), {
    message: JOURNAL_ENTRY_EMPTY_MESSAGE,
  });
export type JournalEntryRequest = z.input<typeof JournalEntryRequest>;
export type JournalEntryInput = z.output<typeof JournalEntryRequest>;

/** An entry as GET /api/journal/entries lists it; `date` is her calendar day when she wrote it. */
export const JournalEntry = z.object({
  id: Uuid,
  date: CalendarDate,
  affirmation: z.string(),
  gratitude: z.string(),
  forgiveness: z.string(),
  createdAt: z.string(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

/** GET /api/journal/entries: her newest 365 entries, newest first. */
export const JournalEntryList = z.array(JournalEntry);
export type JournalEntryList = z.infer<typeof JournalEntryList>;

/** Decision (docs/decisions.md): an entry is "Complete" when all three reflections are written. */
export function isCompleteEntry(entry: Pick<JournalEntry, JournalField>): boolean {
  return JOURNAL_FIELDS.every(({ name }) => entry[name].trim() !== '');
}
