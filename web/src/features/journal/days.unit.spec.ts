import type { JournalEntry } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { groupEntriesByDay } from './days';

const entry = (id: string, date: string, fields: Partial<JournalEntry> = {}): JournalEntry => ({
  id,
  date,
  affirmation: '',
  gratitude: '',
  forgiveness: '',
  createdAt: `${date}T20:00:00.000Z`,
  ...fields,
});

describe('groupEntriesByDay', () => {
  it('puts the entries of one day under one day, keeping the order of days and of entries', () => {
    const days = groupEntriesByDay([
      entry('c', '2026-11-22', { gratitude: 'Tea' }),
      entry('b', '2026-11-22', { affirmation: 'I rest' }),
      entry('a', '2026-11-21', { forgiveness: 'Me' }),
    ]);
    expect(days.map((day) => [day.date, day.entries.map((e) => e.id)])).toEqual([
      ['2026-11-22', ['c', 'b']],
      ['2026-11-21', ['a']],
    ]);
  });

  it('marks a day Complete when its entries hold all three reflections, together or in one', () => {
    const [together, partial, single] = groupEntriesByDay([
      entry('c', '2026-11-22', { gratitude: 'Tea', forgiveness: 'Me' }),
      entry('b', '2026-11-22', { affirmation: 'I rest' }),
      entry('x', '2026-11-21', { affirmation: 'I rest', gratitude: '  ' }),
      entry('y', '2026-11-20', { affirmation: 'A', gratitude: 'G', forgiveness: 'F' }),
    ]);
    expect(together!.complete).toBe(true);
    expect(partial!.complete).toBe(false);
    expect(single!.complete).toBe(true);
  });
});
