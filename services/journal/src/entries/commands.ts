import { calendarDateIn, JOURNAL_ENTRY_EMPTY_MESSAGE, type JournalEntryInput } from '@sleepweave/contracts';
import type { EventMetadata } from '@sleepweave/event-store';
import { badRequest, runCommand, type DomainErrors } from '@sleepweave/service-kit';
import type { JournalContext } from '../context.ts';
import { EmptyJournalEntry, journalEntryDecider } from './business-logic.ts';
import { journalEntryStreamId } from './journal-entry.ts';

// The schema refuses blank entries first; the decider's own rule is the backstop.
const errors: DomainErrors = [[EmptyJournalEntry, () => badRequest(JOURNAL_ENTRY_EMPTY_MESSAGE)]];

/** A new entry, dated the day it is in her timezone (her directory row: 503 until it arrives, 401 once she is deleted). */
export async function writeJournalEntry(
  ctx: JournalContext,
  input: { entryId: string; userId: string; reflections: JournalEntryInput; now: Date },
  metadata: EventMetadata,
): Promise<void> {
  const { entryId, userId, reflections, now } = input;
  await runCommand(
    ctx,
    journalEntryStreamId(userId, entryId),
    journalEntryDecider,
    ({ user }) => ({
      type: 'WriteJournalEntry' as const,
      data: { entryId, userId, date: calendarDateIn(user.timezone, now), ...reflections, now },
    }),
    // Her entry's stream is new: its id was made for this request (nothing to read).
    { user: userId, metadata, errors, expectedVersion: 'no_stream' },
  );
}
