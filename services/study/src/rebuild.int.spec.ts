import { calendarDateIn } from '@sleepweave/contracts';
import { findDirectoryUser } from '@sleepweave/service-kit';
import { rebuildAndSnapshot } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentedParticipant, startStudy, type Study } from './test/helpers.ts';

let env: Study;
beforeAll(async () => {
  env = await startStudy();
});
afterAll(async () => {
  await env?.cleanup();
});

describe('rebuilding every read model', () => {
  it('gives the same tables: consents and nights from the events, the directory from identity’s history', async () => {
    const kept = await consentedParticipant(env, 'America/Chicago');
    const gone = await consentedParticipant(env);
    const date = calendarDateIn('America/Chicago', new Date());
    const logged = await env.study.app.inject({
      method: 'POST',
      url: '/api/sleep/log',
      headers: kept.headers,
      payload: { date, sleepScore: 71 },
    });
    expect(logged.statusCode).toBe(201);
    const deleted = await env.identity.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { authorization: `Bearer ${gone.access}` },
      payload: { password: 'correct horse battery' },
    });
    expect(deleted.statusCode).toBe(200);
    await expect.poll(async () => (await findDirectoryUser(env.study.deps.sql, gone.userId)) === undefined, { timeout: 5_000 }).toBe(true);

    const { before, after } = await rebuildAndSnapshot(env.study);
    expect(after).toEqual(before);
    expect(after.sleep_logs).toHaveLength(1);
    expect(after.user_directory!.map((u) => (u as { user_id: string }).user_id)).toEqual([kept.userId]);
    expect(after.deleted_users!.map((u) => (u as { user_id: string }).user_id)).toEqual([gone.userId]);
  });
});
