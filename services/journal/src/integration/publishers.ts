import type { EventEnvelope } from '@sleepweave/contracts';
import { toEnvelope, type RecordedEvent } from '@sleepweave/event-store';
import type { JournalEntryEvent } from '../entries/journal-entry.ts';

const source = 'journal';

/** Domain events -> integration events. Her reflections stay in this service. */
export function toIntegration(recorded: RecordedEvent): EventEnvelope | null {
  const event = recorded as RecordedEvent<JournalEntryEvent>;
  switch (event.type) {
    case 'JournalEntryWritten': {
      const { entryId, userId, date, writtenAt } = event.data;
      return toEnvelope(event, { source, type: 'journal.entry.written', data: { entryId, userId, date, writtenAt } });
    }
    default:
      return null;
  }
}
