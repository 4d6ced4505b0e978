import { duringDeletion } from '@sleepweave/service-kit/testing';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { EventEnvelope } from '@sleepweave/contracts';
import { findDirectoryUser } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalEntryStreamPrefix } from '../entries/journal-entry.ts';
import { newParticipant, startJournal, type Journal } from '../test/helpers.ts';

let env: Journal;
beforeAll(async () => {
  env = await startJournal();
});
afterAll(async () => {
  await env?.cleanup();
});

const write = (headers: Record<string, string>, payload: object) =>
  env.journal.app.inject({ method: 'POST', url: '/api/journal/entry', headers, payload });

const countStreams = async (userId: string) => {
  const [row] = await env.journal.deps.sql`
    select count(*)::int as n from events where starts_with(stream_id, ${journalEntryStreamPrefix(userId)})`;
  return row?.n as number;
};
const countRows = async (userId: string) => {
  const [row] = await env.journal.deps.sql`select count(*)::int as n from journal_entries where user_id = ${userId}`;
  return row?.n as number;
};

describe('events', () => {
  it('publishes journal.entry.written without her reflections', async () => {
    const seen: EventEnvelope[] = [];
    const watch = await env.journal.deps.bus.watch({
      stream: 'JOURNAL',
      types: ['journal.entry.written'],
      since: new Date(Date.now() - 60_000),
      handler: (e) => {
        seen.push(e);
      },
    });
    try {
      const maya = await newParticipant(env);
      const entry = (await write(maya.headers, { affirmation: 'A very private sentence.' })).json();
      await expect.poll(() => seen.some((e) => (e.data as { entryId?: string }).entryId === entry.id), { timeout: 5_000 }).toBe(true);
      const event = seen.find((e) => (e.data as { entryId?: string }).entryId === entry.id)!;
      expect(event.source).toBe('journal');
      expect(event.data).toEqual({ entryId: entry.id, userId: maya.userId, date: entry.date, writtenAt: entry.createdAt });
      expect(JSON.stringify(event)).not.toContain('private sentence');
    } finally {
      await watch.stop();
    }
  });
});

describe('identity.user.deleted', () => {
  it('removes her entry streams and rows (and her directory row), and nobody else’s', async () => {
    const maya = await newParticipant(env);
    const ines = await newParticipant(env);
    for (const headers of [maya.headers, maya.headers, ines.headers]) {
      expect((await write(headers, { gratitude: 'the sea' })).statusCode).toBe(201);
    }
    expect(await countStreams(maya.userId)).toBe(2);
    expect(await countRows(maya.userId)).toBe(2);

    await env.identity.deps.bus.publish(
      testEnvelope('identity.user.deleted', { userId: maya.userId, deletedAt: new Date().toISOString() }),
    );

    await expect.poll(() => countRows(maya.userId), { timeout: 5_000 }).toBe(0);
    expect(await countStreams(maya.userId)).toBe(0);
    expect(await findDirectoryUser(env.journal.deps.sql, maya.userId)).toBeUndefined();
    expect(await countRows(ines.userId)).toBe(1);
    expect(await countStreams(ines.userId)).toBe(1);

    // Her token may outlive her for a moment: the journal refuses to store anything new.
    const late = await write(maya.headers, { gratitude: 'after deletion' });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({ error: 'unauthorized', message: 'This account has been deleted.' });
    expect(await countRows(maya.userId)).toBe(0);
    const listed = await env.journal.app.inject({ method: 'GET', url: '/api/journal/entries', headers: maya.headers });
    expect(listed.json()).toEqual([]);
  });

  it('leaves nothing of hers when an entry arrives while her deletion is being applied', async () => {
    const maya = await newParticipant(env);
    expect((await write(maya.headers, { gratitude: 'before' })).statusCode).toBe(201);

    const during = await duringDeletion(env.journal, maya.userId, () => write(maya.headers, { gratitude: 'during the deletion' }));

    expect(await countRows(maya.userId)).toBe(0);
    expect(await countStreams(maya.userId)).toBe(0);
    const mentions = await env.journal.deps.sql`select 1 from events where data::text like ${`%${maya.userId}%`}`;
    expect(mentions).toHaveLength(0);
    expect(during.statusCode).toBe(401);
  });
});
