import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { calendarDateIn } from '@sleepweave/contracts';
import { pdfFonts, pdfInfo, pdfPagesToPng, pdfText } from '@sleepweave/documents/testing';
import { findDirectoryUser } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../../identity/src/test/helpers.ts';
import { writeJournalEntry } from '../entries/commands.ts';
import { startJournal, type Journal } from '../test/helpers.ts';
import { longDate } from './business-logic.ts';

const PAGES_DIR = join(import.meta.dirname, '../../../../test-results/journal-export-pages');

let env: Journal;
beforeAll(async () => {
  env = await startJournal();
});
afterAll(async () => {
  await env?.cleanup();
});

const get = (url: string, headers: Record<string, string>) => env.journal.app.inject({ method: 'GET', url, headers });

const NAME = { firstName: 'Ingrid Ólöf', lastName: 'Søndergård-Ñúñez' };
const LONG = 'I let the evening be slow. '.repeat(70).trim(); // about 1,900 characters: flows over a page break

/** A participant who has kept her journal for three weeks, some days twice. */
async function writer() {
  const { user, access } = await register(env.identity, { timezone: 'America/Los_Angeles', ...NAME });
  for (let waited = 0; !(await findDirectoryUser(env.journal.deps.sql, user.id)); waited += 50) {
    if (waited > 5_000) throw new Error('the journal never learnt of her');
    await sleep(50);
  }
  const written: { date: string; affirmation: string }[] = [];
  for (let day = 21; day >= 1; day--) {
    for (const hour of day % 5 === 0 ? [8, 21] : [21]) {
      const now = new Date(Date.now() - day * 86_400_000);
      now.setUTCHours(hour + 8, 14, 0, 0); // her evening in Los Angeles
      const affirmation = day === 7 ? LONG : `Day ${day} at ${hour}: I am *allowed* to rest — [calm] & <quiet> # not a heading`;
      await writeJournalEntry(
        env.journal.context,
        {
          entryId: randomUUID(),
          userId: user.id,
          reflections:
            day === 7
              ? { affirmation, gratitude: LONG, forgiveness: LONG } // longer than a page
              : { affirmation, gratitude: day % 3 === 0 ? '' : 'A cool night, “finally”.', forgiveness: '- not a list\n2. nor this' },
          now,
        },
        { userId: user.id },
      );
      written.push({ date: calendarDateIn('America/Los_Angeles', now), affirmation });
    }
  }
  return { userId: user.id, headers: { authorization: `Bearer ${access}` }, written };
}

let her: Awaited<ReturnType<typeof writer>>;
beforeAll(async () => {
  her = await writer();
}, 60_000);

describe('GET /api/journal/export', () => {
  it('refuses another format with a sentence', async () => {
    for (const url of ['/api/journal/export?format=docx', '/api/journal/export']) {
      const response = await get(url, her.headers);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'validation', message: 'Format must be pdf or md.' });
    }
  });

  it('answers 404 with a sentence when she has written nothing', async () => {
    const { access } = await register(env.identity, { timezone: 'Europe/London' });
    const response = await get('/api/journal/export?format=md', { authorization: `Bearer ${access}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'You have no journal entries to export yet.' });
  });

  it('needs her to be signed in', async () => {
    expect((await get('/api/journal/export?format=md', {})).statusCode).toBe(401);
  });

  it('answers 429 with a sentence past PERSONAL_EXPORTS_PER_10_MINUTES exports of hers', async () => {
    const { access } = await register(env.identity, { timezone: 'Europe/London' });
    const headers = { authorization: `Bearer ${access}` };
    const allowed = env.journal.deps.config.PERSONAL_EXPORTS_PER_10_MINUTES;
    for (let i = 0; i < allowed; i++) expect((await get('/api/journal/export?format=md', headers)).statusCode).not.toBe(429);
    const refused = await get('/api/journal/export?format=md', headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'too_many_requests',
      message: `You can export up to ${allowed} times in 10 minutes. Please wait a few minutes and try again.`,
    });
    // hers only
    expect((await get('/api/journal/export?format=md', her.headers)).statusCode).toBe(200);
  });

  it('gives her whole journal as Markdown, oldest first, her words as she wrote them', async () => {
    const today = calendarDateIn('America/Los_Angeles', new Date());
    const response = await get('/api/journal/export?format=md', her.headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="sleepweave-journal-${today}.md"`);
    const md = response.body;
    expect(md.startsWith(`# ${NAME.firstName} ${NAME.lastName}: my Sleepweave journal\n`)).toBe(true);
    expect(md).toContain(`${her.written.length} entries`);
    // one heading per day, in order
    const days = [...new Set(her.written.map((w) => w.date))];
    const headings = [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(days.map(longDate));
    // escaped, so a Markdown viewer shows what she typed
    expect(md).toContain('Day 21 at 21: I am \\*allowed\\* to rest — \\[calm\\] \\& \\<quiet\\> # not a heading');
    expect(md).toContain('\\- not a list  \n2\\. nor this');
    expect(md.split(LONG).length - 1).toBe(3);
    expect(md).toContain(LONG);
    expect(md.split('**Gratitude**').length - 1).toBe(her.written.length - daysWithoutGratitude());
    expect(md).toContain('*Written at 9:14 PM*');
  });

  it('gives her whole journal as a PDF in an embedded font', async () => {
    const response = await get('/api/journal/export?format=pdf', her.headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const pdf = response.rawPayload;
    const info = await pdfInfo(pdf);
    expect(info.Title).toBe(`${NAME.firstName} ${NAME.lastName}: my Sleepweave journal`);
    expect((await pdfFonts(pdf)).every((f) => f.embedded && f.name.includes('DejaVuSans'))).toBe(true);
    const text = await pdfText(pdf);
    // her text as it reads across page breaks: without the footers between the pages
    const flat = text.replace(/^.*Sleepweave journal · Page \d+.*$/gm, '').replace(/\s+/g, ' ');
    expect(flat).toContain(`${NAME.firstName} ${NAME.lastName}`);
    expect(flat).toContain('Day 21 at 21: I am *allowed* to rest — [calm] & <quiet> # not a heading');
    expect(flat).toContain('A cool night, “finally”.');
    expect(flat.split(LONG).length - 1).toBe(3);
    const days = [...new Set(her.written.map((w) => w.date))];
    let at = 0;
    for (const day of days) {
      const found = flat.indexOf(longDate(day), at);
      expect(found, longDate(day)).toBeGreaterThanOrEqual(at);
      at = found;
    }
    expect(text.match(/Page \d+/g)!.length).toBe(Number(info.Pages));
    await pdfPagesToPng(pdf, PAGES_DIR, 'journal', 60);
  });
});

/** Entries written on days divisible by 3 have no gratitude (blank reflections are left out). */
function daysWithoutGratitude(): number {
  let n = 0;
  for (let day = 21; day >= 1; day--) if (day % 3 === 0) n += day % 5 === 0 ? 2 : 1;
  return n;
}
