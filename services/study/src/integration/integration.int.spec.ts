import { duringDeletion } from '@sleepweave/service-kit/testing';
import { testEnvelope } from '@sleepweave/bus/testing';
import { calendarDateIn, type EventEnvelope } from '@sleepweave/contracts';
import { findDirectoryUser } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentedParticipant, newParticipant, startStudy, type Participant, type Study } from '../test/helpers.ts';

let env: Study;
beforeAll(async () => {
  env = await startStudy();
});
afterAll(async () => {
  await env?.cleanup();
});

describe('study.consent.given', () => {
  it('reaches the bus without the consent text or IP, and identity shows the start date', async () => {
    const seen: EventEnvelope[] = [];
    const watch = await env.study.deps.bus.watch({
      stream: 'STUDY',
      types: ['study.consent.given'],
      since: new Date(Date.now() - 60_000),
      handler: (e) => {
        seen.push(e);
      },
    });
    try {
      const { userId, access, studyStartDate } = await consentedParticipant(env, 'America/Denver');
      expect(studyStartDate).toBe(calendarDateIn('America/Denver', new Date()));
      await expect
        .poll(() => seen.find((e) => e.subject === `consent:${userId}`)?.data, { timeout: 5_000 })
        .toMatchObject({
          userId,
          consentVersion: '1.0',
          studyStartDate,
        });
      expect(JSON.stringify(seen.find((e) => e.subject === `consent:${userId}`))).not.toMatch(/consentText|ipAddress|Daily routine/);

      // identity projects it: GET /api/auth/user returns studyStartDate.
      const authUser = () =>
        env.identity.app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: `Bearer ${access}` } });
      await expect.poll(async () => (await authUser()).json().studyStartDate, { timeout: 5_000 }).toBe(studyStartDate);
    } finally {
      await watch.stop();
    }
  });
});

describe('identity.user.deleted', () => {
  it('removes her consent, her nights (events and rows) and her directory row; others keep theirs', async () => {
    const gone = await consentedParticipant(env);
    const stays = await consentedParticipant(env);
    const date = calendarDateIn('Europe/London', new Date());
    for (const p of [gone, stays]) {
      const created = await env.study.app.inject({
        method: 'POST',
        url: '/api/sleep/log',
        headers: p.headers,
        payload: { date, sleepScore: 80 },
      });
      expect(created.statusCode).toBe(201);
    }
    const { sql } = env.study.deps;
    const counts = async (userId: string) => {
      const [row] = await sql<{ events: number; consents: number; logs: number }[]>`
        select
          (select count(*)::int from events where stream_id = ${`consent:${userId}`} or starts_with(stream_id, ${`sleep_log:${userId}:`})) as events,
          (select count(*)::int from consents where user_id = ${userId}) as consents,
          (select count(*)::int from sleep_logs where user_id = ${userId}) as logs`;
      return row!;
    };
    expect(await counts(gone.userId)).toEqual({ events: 2, consents: 1, logs: 1 });

    await env.study.deps.bus.publish(testEnvelope('identity.user.deleted', { userId: gone.userId, deletedAt: new Date().toISOString() }));
    await expect.poll(async () => await findDirectoryUser(sql, gone.userId), { timeout: 5_000 }).toBeUndefined();
    expect(await counts(gone.userId)).toEqual({ events: 0, consents: 0, logs: 0 });
    expect(await counts(stays.userId)).toEqual({ events: 2, consents: 1, logs: 1 });
    const leftovers = await sql`select 1 from events where data::text like ${`%${gone.userId}%`}`;
    expect(leftovers).toHaveLength(0);
  });

  describe('racing a write', () => {
    const counts = async (userId: string) => {
      const { sql } = env.study.deps;
      const [row] = await sql<{ events: number; mentions: number; consents: number; logs: number }[]>`
        select
          (select count(*)::int from events where stream_id = ${`consent:${userId}`} or starts_with(stream_id, ${`sleep_log:${userId}:`})) as events,
          (select count(*)::int from events where data::text like ${`%${userId}%`}) as mentions,
          (select count(*)::int from consents where user_id = ${userId}) as consents,
          (select count(*)::int from sleep_logs where user_id = ${userId}) as logs`;
      return row!;
    };
    const nothing = { events: 0, mentions: 0, consents: 0, logs: 0 };
    const today = () => calendarDateIn('Europe/London', new Date());
    const inject = (p: Participant, method: 'POST' | 'PUT', url: string, payload: object) =>
      env.study.app.inject({ method, url, headers: p.headers, payload });

    it('a consent given while her deletion is applied leaves nothing of hers (401)', async () => {
      const maya = await newParticipant(env);
      const during = await duringDeletion(env.study, maya.userId, () => inject(maya, 'POST', '/api/sleep/consent', {}));
      expect(await counts(maya.userId)).toEqual(nothing);
      expect(during.statusCode).toBe(401);
      expect(during.json()).toEqual({ error: 'unauthorized', message: 'This account has been deleted.' });
    });

    it('a night logged while her deletion is applied leaves nothing of hers (401)', async () => {
      const maya = await consentedParticipant(env);
      const during = await duringDeletion(env.study, maya.userId, () =>
        inject(maya, 'POST', '/api/sleep/log', { date: today(), sleepScore: 80 }),
      );
      expect(await counts(maya.userId)).toEqual(nothing);
      expect(during.statusCode).toBe(401);
    });

    it('a night revised while her deletion is applied leaves nothing of hers (401)', async () => {
      const maya = await consentedParticipant(env);
      const night = (await inject(maya, 'POST', '/api/sleep/log', { date: today(), sleepScore: 70 })).json();
      const during = await duringDeletion(env.study, maya.userId, () =>
        inject(maya, 'PUT', `/api/sleep/log/${night.id}`, { date: today(), sleepScore: 90 }),
      );
      expect(await counts(maya.userId)).toEqual(nothing);
      expect(during.statusCode).toBe(401);
    });

    it('after her deletion, her token gets 401 (not "still being set up") and stores nothing', async () => {
      const maya = await newParticipant(env);
      await duringDeletion(env.study, maya.userId, async () => undefined);
      const started = Date.now();
      const consent = await inject(maya, 'POST', '/api/sleep/consent', {});
      expect(consent.statusCode).toBe(401);
      expect(Date.now() - started).toBeLessThan(2_000); // no waiting for a profile that will never come
      expect((await inject(maya, 'POST', '/api/sleep/log', { date: today(), sleepScore: 80 })).statusCode).toBe(401);
      expect(await counts(maya.userId)).toEqual(nothing);
    });
  });

  it('is a no-op for a user the study never saw', async () => {
    const { userId } = await newParticipant(env);
    const unknown = testEnvelope('identity.user.deleted', {
      userId: '00000000-0000-4000-8000-000000000001',
      deletedAt: new Date().toISOString(),
    });
    await env.study.deps.bus.publish(unknown);
    await expect
      .poll(async () => (await env.study.deps.sql`select 1 from inbox where event_id = ${unknown.id}`).length, { timeout: 5_000 })
      .toBe(1);
    expect(await findDirectoryUser(env.study.deps.sql, userId)).toBeDefined();
  });
});
