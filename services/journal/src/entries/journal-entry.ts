import type { DomainEvent } from '@sleepweave/event-store';

/** One stream per entry; her entries share the prefix, so her deletion removes them all. */
export const journalEntryStreamPrefix = (userId: string) => `journal_entry:${userId}:`;
export const journalEntryStreamId = (userId: string, entryId: string) => `${journalEntryStreamPrefix(userId)}${entryId}`;

export type JournalEntryWritten = DomainEvent<
  'JournalEntryWritten',
  {
    entryId: string;
    userId: string;
    /** Her calendar day (YYYY-MM-DD, in her timezone) when she wrote it. */
    date: string;
    affirmation: string;
    gratitude: string;
    forgiveness: string;
    writtenAt: string;
  }
>;

export type JournalEntryEvent = JournalEntryWritten;

export type JournalEntryState = { status: 'unwritten' } | { status: 'written'; entryId: string; userId: string };

export const initialState = (): JournalEntryState => ({ status: 'unwritten' });

export function evolve(state: JournalEntryState, event: JournalEntryEvent): JournalEntryState {
  switch (event.type) {
    case 'JournalEntryWritten':
      return { status: 'written', entryId: event.data.entryId, userId: event.data.userId };
    default:
      return state;
  }
}
