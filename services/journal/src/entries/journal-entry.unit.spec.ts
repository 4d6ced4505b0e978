import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import { EmptyJournalEntry, JournalEntryAlreadyWritten, journalEntryDecider, type WriteJournalEntry } from './business-logic.ts';
import { calendarDateIn } from '@sleepweave/contracts';
import type { JournalEntryEvent } from './journal-entry.ts';

const now = new Date('2026-11-21T21:30:00.000Z');
const entryId = '0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a01';
const userId = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const write = (texts: Partial<Record<'affirmation' | 'gratitude' | 'forgiveness', string>>): WriteJournalEntry => ({
  type: 'WriteJournalEntry',
  data: { entryId, userId, date: '2026-11-21', affirmation: '', gratitude: '', forgiveness: '', ...texts, now },
});
const written: JournalEntryEvent = {
  type: 'JournalEntryWritten',
  data: {
    entryId,
    userId,
    date: '2026-11-21',
    affirmation: 'I am allowed to rest.',
    gratitude: 'A cool night and a quiet house.',
    forgiveness: '',
    writtenAt: now.toISOString(),
  },
};

const spec = deciderSpec(journalEntryDecider);

describe('journal entry decider', () => {
  it('writes an entry, trimming each reflection', () => {
    spec
      .given([])
      .when(write({ affirmation: '  I am allowed to rest.\n', gratitude: 'A cool night and a quiet house.', forgiveness: '   ' }))
      .then([written]);
  });

  it('refuses an entry with nothing but whitespace', () => {
    spec
      .given([])
      .when(write({ affirmation: ' ', gratitude: '\n\t', forgiveness: '' }))
      .thenThrows(EmptyJournalEntry);
  });

  it('writes an entry once: entries are never rewritten', () => {
    spec
      .given([written])
      .when(write({ gratitude: 'again' }))
      .thenThrows(JournalEntryAlreadyWritten);
  });
});

describe('calendarDateIn', () => {
  it.each([
    // Paris is UTC+1 in November
    ['2026-11-21T21:30:00.000Z', 'Europe/Paris', '2026-11-21'],
    ['2026-11-21T23:30:00.000Z', 'Europe/Paris', '2026-11-22'],
    ['2026-11-21T23:30:00.000Z', 'Europe/London', '2026-11-21'],
    ['2026-11-22T04:30:00.000Z', 'America/New_York', '2026-11-21'],
    ['2026-11-22T07:59:00.000Z', 'America/Los_Angeles', '2026-11-21'],
    ['2026-11-22T08:00:00.000Z', 'America/Los_Angeles', '2026-11-22'],
    // summer time: London is UTC+1
    ['2026-07-01T23:30:00.000Z', 'Europe/London', '2026-07-02'],
  ])('%s in %s is %s', (instant, timezone, expected) => {
    expect(calendarDateIn(timezone, new Date(instant))).toBe(expected);
  });
});
