import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type JournalEntryEvent, type JournalEntryState } from './journal-entry.ts';

export type WriteJournalEntry = {
  type: 'WriteJournalEntry';
  data: {
    entryId: string;
    userId: string;
    date: string;
    affirmation: string;
    gratitude: string;
    forgiveness: string;
    now: Date;
  };
};
export type JournalEntryCommand = WriteJournalEntry;

export class JournalEntryAlreadyWritten extends Error {
  override name = 'JournalEntryAlreadyWritten';
}
export class EmptyJournalEntry extends Error {
  override name = 'EmptyJournalEntry';
}

/**
 * An entry is written once (entries are never edited). Reflections are stored trimmed;
 * an entry with nothing but whitespace is refused.
 */
export function write(command: WriteJournalEntry, state: JournalEntryState): JournalEntryEvent[] {
  if (state.status !== 'unwritten') throw new JournalEntryAlreadyWritten('This journal entry has already been written');
  const { now, ...data } = command.data;
  const affirmation = data.affirmation.trim();
  const gratitude = data.gratitude.trim();
  const forgiveness = data.forgiveness.trim();
  if (!affirmation && !gratitude && !forgiveness) throw new EmptyJournalEntry('A journal entry needs at least one reflection');
  return [
    {
      type: 'JournalEntryWritten',
      data: { ...data, affirmation, gratitude, forgiveness, writtenAt: now.toISOString() },
    },
  ];
}

export function decide(command: JournalEntryCommand, state: JournalEntryState): JournalEntryEvent[] {
  switch (command.type) {
    case 'WriteJournalEntry':
      return write(command, state);
    default: {
      const exhaustive: never = command.type;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const journalEntryDecider: Decider<JournalEntryCommand, JournalEntryState, JournalEntryEvent> = {
  decide,
  evolve,
  initialState,
};
