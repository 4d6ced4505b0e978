import { rebuildAndSnapshot } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newParticipant, startJournal, type Journal } from './test/helpers.ts';

let env: Journal;
beforeAll(async () => {
  env = await startJournal();
});
afterAll(async () => {
  await env?.cleanup();
});

describe('rebuilding every read model', () => {
  it('gives the same tables: entries from the events, the directory from identity’s history', async () => {
    const maya = await newParticipant(env, 'America/Los_Angeles');
    const ines = await newParticipant(env);
    for (const headers of [maya.headers, maya.headers, ines.headers]) {
      const written = await env.journal.app.inject({
        method: 'POST',
        url: '/api/journal/entry',
        headers,
        payload: { gratitude: 'the sea' },
      });
      expect(written.statusCode).toBe(201);
    }
    const { before, after } = await rebuildAndSnapshot(env.journal);
    expect(after).toEqual(before);
    expect(after.journal_entries).toHaveLength(3);
    expect(after.user_directory).toHaveLength(2);
  });
});
