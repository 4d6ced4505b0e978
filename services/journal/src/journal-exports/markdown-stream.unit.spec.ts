import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JournalEntry } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { writeMarkdown } from './routes.ts';

const header = { name: 'Ada', entries: 1000, first: '2026-01-01', last: '2026-12-31', exportedOn: '2027-01-01' };
const entry = (i: number): JournalEntry => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  date: '2026-01-01',
  affirmation: `I rest well ${i}`,
  gratitude: 'A cool night',
  forgiveness: 'My restless self',
  createdAt: '2026-01-01T20:00:00.000Z',
});

describe('writeMarkdown', () => {
  it('writes every entry to a reader and ends', async () => {
    async function* entries() {
      for (let i = 0; i < 3; i++) yield entry(i);
    }
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await writeMarkdown(out, header, entries(), 'UTC');
    await new Promise((resolve) => out.once('end', resolve));
    const text = Buffer.concat(chunks).toString();
    expect(text).toContain('# Ada: my Sleepweave journal');
    expect(text).toContain('I rest well 2');
  });

  it('stops and closes the entries (the cursor) when the download is cancelled while the next page is read', async () => {
    let closed = false;
    async function* entries() {
      try {
        for (let i = 0; i < 1000; i++) {
          if (i % 10 === 0) await sleep(20); // the next page of the cursor
          yield entry(i);
        }
      } finally {
        closed = true;
      }
    }
    const out = new PassThrough({ highWaterMark: 16 });
    out.on('error', () => undefined);
    out.resume(); // a reader that keeps up
    const writing = writeMarkdown(out, header, entries(), 'UTC');
    await sleep(30);
    out.destroy(); // she cancelled: the gateway closed the connection
    const ended = await Promise.race([writing.then(() => 'ended'), sleep(2_000).then(() => 'still waiting')]);
    expect(ended).toBe('ended');
    expect(closed).toBe(true);
  });
});
