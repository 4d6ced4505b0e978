import { setTimeout as sleep } from 'node:timers/promises';
import type { JournalEntry } from '@sleepweave/contracts';
import { collect, pdfInfo } from '@sleepweave/documents/testing';
import { describe, expect, it } from 'vitest';
import { startJournalPdf } from './pdf.ts';

/** (integration: pdfkit reads its fonts from disk, and the PDF is read back with poppler-utils.) */
const ENTRIES = 300;
const header = { name: 'Ada', entries: ENTRIES, first: '2026-01-01', last: '2026-12-31', exportedOn: '2027-01-01' };
const long = (i: number) => `${i} `.padEnd(2_000, 'I slept with the window open and woke only once. ');
const entry = (i: number): JournalEntry => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
  affirmation: long(i),
  gratitude: long(i),
  forgiveness: long(i),
  createdAt: '2026-01-01T20:00:00.000Z',
});

/** Her entries as the database cursor gives them, counting how many were taken. */
function journal() {
  const taken = { count: 0 };
  async function* entries() {
    for (let i = 0; i < ENTRIES; i++) {
      taken.count += 1;
      yield entry(i);
    }
  }
  return { taken, entries: entries() };
}

describe('the journal PDF, written as it is read', () => {
  it('waits for a reader that does not read, holding a few pages at most, then writes the rest once she reads', async () => {
    const { taken, entries } = journal();
    const { report, write } = startJournalPdf(header, 'UTC', entries);
    const writing = write();
    await sleep(500);
    expect(taken.count).toBeLessThan(ENTRIES / 10);
    expect(report.doc.readableLength).toBeLessThan(256 * 1024);

    const bytes = await collect(report.doc);
    await writing;
    expect(taken.count).toBe(ENTRIES);
    expect(Number((await pdfInfo(bytes)).Pages)).toBeGreaterThan(ENTRIES);
  });

  it('lets the service answer others while it lays out a long journal (the event loop turns between its entries)', async () => {
    const { entries } = journal();
    const { report, write } = startJournalPdf(header, 'UTC', entries);
    // work of others waiting for a turn of the event loop: how many turns it got meanwhile
    // (counted, not timed: the machine's speed does not change it)
    let turns = 0;
    let waiting = true;
    const other = () => {
      if (!waiting) return;
      turns += 1;
      setImmediate(other);
    };
    setImmediate(other);
    try {
      const reading = collect(report.doc);
      await write();
      await reading;
    } finally {
      waiting = false;
    }
    expect(turns).toBeGreaterThanOrEqual(ENTRIES);
  });
});
