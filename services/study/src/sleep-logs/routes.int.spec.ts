import { randomUUID } from 'node:crypto';
import { addDays, calendarDateIn, nightEndTime, type EventEnvelope } from '@sleepweave/contracts';
import { holdStreamLock } from '@sleepweave/service-kit/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentedParticipant, giveConsentAt, newParticipant, startStudy, type Study } from '../test/helpers.ts';
import { sleepLogDecider } from './business-logic.ts';
import { SLEEP_LOG_CHANGED_MEANWHILE } from './commands.ts';
import { sleepLogStreamId } from './sleep-log.ts';

let env: Study;
beforeAll(async () => {
  env = await startStudy();
});
afterAll(async () => {
  await env?.cleanup();
});

type Headers = Record<string, string>;
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) =>
  env.study.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const createLog = (headers: Headers, payload: object) => inject('POST', '/api/sleep/log', headers, payload);
const todayIn = (zone: string) => calendarDateIn(zone, new Date());

const night = {
  sleepwearMaterial: '100% Polyester',
  sleepScore: 82,
  totalSleepMinutes: 452,
  sleepEfficiency: 91.5,
  timeInBedMinutes: 500,
  restingHr: 56,
  restfulness: 74,
  remMinutes: 95,
  deepMinutes: 70,
  latencyMinutes: 12,
  timingScore: 88,
  avgSpo2: 96.5,
  breathingRegularity: 'Optimal',
  lowestHr: 49,
  avgHrv: 41.5,
  sleepQuality110: 7,
  restfulnessSelf: 6,
  morningMood: 'Refreshed',
  dreamRecall: true,
  fabricComfort: 'Comfortable',
  emotionalCalm: 8,
  heatWave: true,
  heatWakeups: 2,
  comments: 'Hot flash around 3am',
};

describe('POST /api/sleep/log', () => {
  it('records a night with the study day and phase of that night', async () => {
    const { headers, userId } = await consentedParticipant(env);
    const date = todayIn('Europe/London');
    const response = await createLog(headers, { date, ...night, userId: randomUUID() });
    expect(response.statusCode).toBe(201);
    const log = response.json();
    expect(log).toMatchObject({ date, userId, studyDay: 1, phase: 'polyester', recommendedMaterial: '100% Polyester', ...night });
    expect((await inject('GET', `/api/sleep/log/${date}`, headers)).json()).toEqual(log);
  });

  it('stores the phase of a later night of her study', async () => {
    const { headers, userId } = await newParticipant(env, 'America/New_York');
    // She consented 15 days ago: today is day 16, washout day 2.
    const consentedAt = new Date(Date.now() - 15 * 86_400_000);
    await giveConsentAt(env, userId, 'America/New_York', consentedAt);
    const today = todayIn('America/New_York');
    const response = await createLog(headers, { date: today, sleepwearMaterial: '100% Cotton' });
    expect(response.json()).toMatchObject({ studyDay: 16, phase: 'washout', recommendedMaterial: '100% Cotton' });
    const first = await createLog(headers, { date: calendarDateIn('America/New_York', consentedAt) });
    expect(first.json()).toMatchObject({ studyDay: 1, phase: 'polyester' });
  });

  it('accepts exactly one of 20 concurrent creates for one night; the rest get 409', async () => {
    const { headers, userId } = await consentedParticipant(env);
    const date = todayIn('Europe/London');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => createLog(headers, { date, sleepScore: 60 + i })));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toEqual({
      error: 'conflict',
      message: 'A sleep log for this date already exists.',
    });
    const rows = await env.study.deps.sql`select sleep_score from sleep_logs where user_id = ${userId}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sleep_score).toBe(answers.find((a) => a.statusCode === 201)!.json().sleepScore);
    const events = await env.study.deps.sql`select 1 from events where stream_id = ${`sleep_log:${userId}:${date}`}`;
    expect(events).toHaveLength(1);
  });

  it.each([
    [{ sleepScore: 101 }, 'sleepScore: Sleep score must be between 0 and 100'],
    [{ sleepEfficiency: -0.1 }, 'sleepEfficiency: Sleep efficiency must be between 0 and 100 %'],
    [{ sleepQuality110: 0 }, 'sleepQuality110: Sleep quality must be between 1 and 10'],
    [{ deepMinutes: -1 }, 'deepMinutes: Deep sleep cannot be negative'],
    [{ heatWakeups: 1.5 }, 'heatWakeups: Heat wake-ups must be a whole number'],
    [{ restingHr: 400 }, 'restingHr: Resting heart rate must be between 20 and 250 bpm'],
    [{ avgSpo2: 30 }, 'avgSpo2: Average SpO2 must be between 50 and 100 %'],
    [{ avgHrv: 500 }, 'avgHrv: Average HRV must be between 0 and 300 ms'],
    [{ date: '2026-02-30' }, 'date: Not a real calendar date'],
    [{ date: undefined }, 'date: Date is required'],
  ])('refuses %j with a 400 naming the field', async (fields, message) => {
    const { headers } = await consentedParticipant(env);
    const response = await createLog(headers, { date: todayIn('Europe/London'), ...fields });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', message });
  });

  it('refuses a night after tomorrow or before her study started', async () => {
    const { headers } = await consentedParticipant(env, 'Europe/Paris');
    const today = todayIn('Europe/Paris');
    expect((await createLog(headers, { date: addDays(today, 1) })).statusCode).toBe(201);
    const late = await createLog(headers, { date: addDays(today, 2) });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(`date: You can log nights up to tomorrow (${addDays(today, 1)}).`);
    const early = await createLog(headers, { date: addDays(today, -1) });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(`date: Your study started on ${today}; nights before it are not part of the study.`);
  });

  it('needs her consent first', async () => {
    const { headers } = await newParticipant(env);
    const response = await createLog(headers, { date: todayIn('Europe/London') });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: 'consent_required',
      message: 'Please give your consent to the sleep study before logging sleep.',
    });
  });
});

describe('GET /api/sleep/log/{date} and /api/sleep/logs', () => {
  it('finds a night by date (404 when none, 400 for a malformed date) and lists nights newest first', async () => {
    const { headers } = await consentedParticipant(env);
    const today = todayIn('Europe/London');
    const none = await inject('GET', `/api/sleep/log/${today}`, headers);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ error: 'not_found', message: 'No sleep log for this date.' });
    expect((await inject('GET', '/api/sleep/log/2026-13-01', headers)).statusCode).toBe(400);
    expect((await inject('GET', '/api/sleep/log/yesterday', headers)).json().error).toBe('validation');

    await createLog(headers, { date: today, sleepScore: 70 });
    await createLog(headers, { date: addDays(today, 1), sleepScore: 75 });
    const list = await inject('GET', '/api/sleep/logs', headers);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((l: { date: string }) => l.date)).toEqual([addDays(today, 1), today]);
  });

  it('answers 401 without a session', async () => {
    expect((await env.study.app.inject({ method: 'GET', url: '/api/sleep/logs' })).statusCode).toBe(401);
  });
});

describe('PUT /api/sleep/log/{id}', () => {
  it('replaces the night’s fields; a field left out is cleared', async () => {
    const { headers } = await consentedParticipant(env);
    const date = todayIn('Europe/London');
    const created = (await createLog(headers, { date, ...night })).json();
    const { comments: _dropped, ...rest } = night;
    const response = await inject('PUT', `/api/sleep/log/${created.id}`, headers, {
      ...rest,
      date,
      sleepScore: 90,
      totalSleepMinutes: 480,
    });
    expect(response.statusCode).toBe(200);
    const updated = response.json();
    expect(updated).toMatchObject({
      id: created.id,
      date,
      studyDay: 1,
      phase: 'polyester',
      sleepScore: 90,
      totalSleepMinutes: 480,
      comments: null,
    });
    expect(updated.createdAt).toBe(created.createdAt);
    expect((await inject('GET', `/api/sleep/log/${date}`, headers)).json()).toEqual(updated);
  });

  it('stamps a revision once the night’s turn has come, so that the newest stamp is the last revision committed', async () => {
    const { headers, userId } = await consentedParticipant(env);
    const date = todayIn('Europe/London');
    const created = (await createLog(headers, { date, ...night })).json();
    const { sql } = env.study.deps;
    // another revision of the night holds its stream (a second tab, another study instance)
    const other = await holdStreamLock(sql, sleepLogStreamId(userId, date));
    const saving = inject('PUT', `/api/sleep/log/${created.id}`, headers, { ...night, date, sleepScore: 60 });
    await sleep(300);
    const releasedAt = await other.release();
    expect((await saving).statusCode).toBe(200);
    const [event] = await sql<{ revised_at: string }[]>`
      select data->>'revisedAt' as revised_at from events
      where stream_id = ${sleepLogStreamId(userId, date)} and type = 'SleepLogRevised'`;
    expect(Date.parse(event!.revised_at)).toBeGreaterThanOrEqual(releasedAt);
  });

  it('a night saved before it ended, saved again unchanged once it has: stamped anew (research keeps it then), once', async () => {
    const { headers, userId } = await newParticipant(env, 'Europe/London');
    const consentedAt = new Date(Date.now() - 3 * 86_400_000);
    await giveConsentAt(env, userId, 'Europe/London', consentedAt);
    // the night before last, saved an hour before it ended (at 03:00 on its morning)
    const date = addDays(todayIn('Europe/London'), -2);
    const early = new Date(nightEndTime('Europe/London', date) - 3_600_000);
    const { comments: _c, ...values } = night;
    await env.study.context.store.handle(sleepLogStreamId(userId, date), sleepLogDecider, {
      type: 'RecordSleepLog',
      data: {
        logId: randomUUID(),
        userId,
        date,
        values: { ...Object.fromEntries(Object.keys(night).map((key) => [key, null])), ...values } as never,
        studyStartDate: calendarDateIn('Europe/London', consentedAt),
        timezone: 'Europe/London',
        now: early,
      },
    });
    const saved = (await inject('GET', `/api/sleep/log/${date}`, headers)).json();
    expect(Date.parse(saved.updatedAt)).toBe(early.getTime());
    const { id, createdAt: _created, updatedAt: _updated, studyDay: _d, phase: _p, recommendedMaterial: _m, userId: _u, ...form } = saved;

    const again = await inject('PUT', `/api/sleep/log/${id}`, headers, { ...form, expectedUpdatedAt: saved.updatedAt });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...saved, updatedAt: again.json().updatedAt });
    expect(Date.parse(again.json().updatedAt)).toBeGreaterThan(nightEndTime('Europe/London', date));
    // saved after it ended now: a further unchanged save decides nothing
    expect((await inject('PUT', `/api/sleep/log/${id}`, headers, form)).json().updatedAt).toBe(again.json().updatedAt);
    const { sql } = env.study.deps;
    const revisions = await sql`select 1 from events where stream_id = ${sleepLogStreamId(userId, date)} and type = 'SleepLogRevised'`;
    expect(revisions).toHaveLength(1);
  });

  it('two tabs: a save from a form filled before the other tab saved is refused (409), the other save kept; from the latest, applied', async () => {
    const { headers } = await consentedParticipant(env);
    const date = todayIn('Europe/London');
    const loaded = (await createLog(headers, { date, ...night, sleepScore: 60 })).json();
    // tab A saves a new score; tab B, filled from the same night, then saves a new comment
    const a = await inject('PUT', `/api/sleep/log/${loaded.id}`, headers, {
      ...night,
      date,
      sleepScore: 91,
      expectedUpdatedAt: loaded.updatedAt,
    });
    expect(a.statusCode).toBe(200);
    const b = await inject('PUT', `/api/sleep/log/${loaded.id}`, headers, {
      ...night,
      date,
      sleepScore: 60,
      comments: 'Woke at 4',
      expectedUpdatedAt: loaded.updatedAt,
    });
    expect(b.statusCode).toBe(409);
    expect(b.json()).toEqual({ error: 'changed_meanwhile', message: SLEEP_LOG_CHANGED_MEANWHILE });
    const kept = (await inject('GET', `/api/sleep/log/${date}`, headers)).json();
    expect(kept).toMatchObject({ sleepScore: 91, comments: night.comments, updatedAt: a.json().updatedAt });
    // tab B, shown the night as it now is, saves again: applied
    const again = await inject('PUT', `/api/sleep/log/${loaded.id}`, headers, {
      ...night,
      date,
      sleepScore: 91,
      comments: 'Woke at 4',
      expectedUpdatedAt: kept.updatedAt,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ sleepScore: 91, comments: 'Woke at 4' });
    // without it, the later save replaces the earlier (the spec's body); a malformed one is a 400
    expect((await inject('PUT', `/api/sleep/log/${loaded.id}`, headers, { ...night, date })).statusCode).toBe(200);
    const malformed = await inject('PUT', `/api/sleep/log/${loaded.id}`, headers, { ...night, date, expectedUpdatedAt: 'yesterday' });
    expect(malformed.json()).toEqual({
      error: 'validation',
      message: "expectedUpdatedAt: Must be the night's updatedAt as it was loaded",
    });
  });

  it('refuses to move a log to another date and validates like a create', async () => {
    const { headers } = await consentedParticipant(env);
    const date = todayIn('Europe/London');
    const created = (await createLog(headers, { date })).json();
    const moved = await inject('PUT', `/api/sleep/log/${created.id}`, headers, { date: addDays(date, 1) });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toMatch(/^date: A sleep log's date cannot be changed/);
    const bad = await inject('PUT', `/api/sleep/log/${created.id}`, headers, { date, sleepQuality110: 12 });
    expect(bad.json()).toEqual({ error: 'validation', message: 'sleepQuality110: Sleep quality must be between 1 and 10' });
  });

  it('lets nobody else read or change her log (404)', async () => {
    const maya = await consentedParticipant(env);
    const other = await consentedParticipant(env);
    const date = todayIn('Europe/London');
    const log = (await createLog(maya.headers, { date, ...night })).json();

    const read = await inject('GET', `/api/sleep/log/${date}`, other.headers);
    expect(read.statusCode).toBe(404);
    expect((await inject('GET', '/api/sleep/logs', other.headers)).json()).toEqual([]);
    const change = await inject('PUT', `/api/sleep/log/${log.id}`, other.headers, { date, sleepScore: 1 });
    expect(change.statusCode).toBe(404);
    expect(change.json()).toEqual({ error: 'not_found', message: 'Sleep log not found.' });
    expect((await inject('PUT', `/api/sleep/log/${randomUUID()}`, maya.headers, { date })).statusCode).toBe(404);

    expect((await inject('GET', `/api/sleep/log/${date}`, maya.headers)).json()).toEqual(log);
  });
});

describe('events for research', () => {
  it('publishes study.sleep_log.recorded and .revised with the night, its study day, phase, her time zone and every metric', async () => {
    const seen: EventEnvelope[] = [];
    const watch = await env.study.deps.bus.watch({
      stream: 'STUDY',
      types: ['study.sleep_log.recorded', 'study.sleep_log.revised'],
      since: new Date(Date.now() - 60_000),
      handler: (e) => {
        seen.push(e);
      },
    });
    try {
      const { headers, userId } = await consentedParticipant(env);
      const date = todayIn('Europe/London');
      const log = (await createLog(headers, { date, ...night })).json();
      await inject('PUT', `/api/sleep/log/${log.id}`, headers, { ...night, date, sleepScore: 85 });
      const mine = () => seen.filter((e) => e.subject === `sleep_log:${userId}:${date}`);
      await expect
        .poll(() => mine().map((e) => e.type), { timeout: 5_000 })
        .toEqual(['study.sleep_log.recorded', 'study.sleep_log.revised']);
      const [recorded, revised] = mine();
      const expected = {
        logId: log.id,
        userId,
        date,
        studyDay: 1,
        phase: 'polyester',
        recommendedMaterial: '100% Polyester',
        timezone: 'Europe/London',
        ...night,
      };
      expect(recorded!.data).toEqual({ ...expected, recordedAt: log.createdAt });
      expect(revised!.data).toMatchObject({ ...expected, sleepScore: 85 });
      expect(recorded!.source).toBe('study');
    } finally {
      await watch.stop();
    }
  });
});

describe('GET /api/sleep/logs, paged (Growth)', () => {
  it('gives 100 nights by default; limit and the X-Next-Cursor cursor page through every night once, newest first', async () => {
    const { headers } = await consentedParticipant(env);
    const today = todayIn('Europe/London');
    // She may log tonight and the next night: two nights, a page each.
    const dates = [today, addDays(today, 1)];
    for (const date of dates) expect((await createLog(headers, { date, sleepScore: 70 })).statusCode).toBe(201);

    const whole = await inject('GET', '/api/sleep/logs', headers);
    expect(whole.headers['x-next-cursor']).toBeUndefined();
    expect(whole.json().map((l: { date: string }) => l.date)).toEqual([...dates].reverse());

    const seen: string[] = [];
    let url = '/api/sleep/logs?limit=1';
    for (let pages = 0; pages < 10; pages++) {
      const page = await inject('GET', url, headers);
      expect(page.statusCode).toBe(200);
      seen.push(...page.json().map((l: { date: string }) => l.date));
      const next = page.headers['x-next-cursor'];
      if (typeof next !== 'string') break;
      url = `/api/sleep/logs?limit=1&cursor=${next}`;
    }
    expect(seen).toEqual([...dates].reverse());
  });

  it('refuses a cursor it did not give and a limit below 1 (400 with a message); clamps a limit above 366', async () => {
    const { headers } = await consentedParticipant(env);
    const bad = await inject('GET', '/api/sleep/logs?cursor=WyIyMDI2LTEzLTAxIl0', headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'validation', message: 'cursor is not one this server gave: start again without it' });
    // the year 0: a date of the right shape that PostgreSQL cannot read (400, not 500)
    expect((await inject('GET', '/api/sleep/logs?cursor=WyIwMDAwLTAxLTAxIl0', headers)).statusCode).toBe(400);
    expect((await inject('GET', '/api/sleep/logs?limit=0', headers)).statusCode).toBe(400);
    expect((await inject('GET', '/api/sleep/logs?limit=100000', headers)).statusCode).toBe(200);
  });
});
