import { calendarDateIn, consentText } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newParticipant, startStudy, type Study } from '../test/helpers.ts';

let env: Study;
beforeAll(async () => {
  env = await startStudy();
});
afterAll(async () => {
  await env?.cleanup();
});

const consentStatus = (headers: Record<string, string>) => env.study.app.inject({ method: 'GET', url: '/api/sleep/consent', headers });
const giveConsent = (headers: Record<string, string>, payload: unknown = {}) =>
  env.study.app.inject({
    method: 'POST',
    url: '/api/sleep/consent',
    headers: { ...headers, 'x-forwarded-for': '203.0.113.7' },
    payload: payload as object,
  });

describe('/api/sleep/consent', () => {
  it('answers 401 without a session', async () => {
    expect((await env.study.app.inject({ method: 'GET', url: '/api/sleep/consent' })).statusCode).toBe(401);
    const post = await env.study.app.inject({ method: 'POST', url: '/api/sleep/consent', payload: { consentVersion: 'nonsense' } });
    expect(post.statusCode).toBe(401);
  });

  it('records consent once with text, version, time and IP; the start date is today in her timezone', async () => {
    const { userId, headers } = await newParticipant(env, 'America/Los_Angeles');
    expect((await consentStatus(headers)).json()).toEqual({
      hasConsent: false,
      consentVersion: null,
      acceptedAt: null,
      studyStartDate: null,
    });

    const before = new Date();
    const first = await giveConsent(headers);
    expect(first.statusCode).toBe(201);
    const status = first.json();
    expect(status).toMatchObject({ hasConsent: true, consentVersion: '1.0' });
    expect([calendarDateIn('America/Los_Angeles', before), calendarDateIn('America/Los_Angeles', new Date())]).toContain(
      status.studyStartDate,
    );
    expect((await consentStatus(headers)).json()).toEqual(status);

    const [row] = await env.study.deps
      .sql`select consent_text, consent_version, ip_address, accepted_at, timezone from consents where user_id = ${userId}`;
    expect(row).toMatchObject({
      consent_text: consentText(),
      consent_version: '1.0',
      ip_address: '203.0.113.7',
      timezone: 'America/Los_Angeles',
    });
    expect(new Date(row!.accepted_at).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);

    // Consent twice: nothing moves, nothing new is stored.
    const again = await giveConsent(headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(status);
    const [{ count }] = (await env.study.deps
      .sql`select count(*)::int as count from events where stream_id = ${`consent:${userId}`}`) as unknown as [{ count: number }];
    expect(count).toBe(1);
  });

  it("takes the spec's empty body (no body, or one of no bytes with a JSON content type) as the current version", async () => {
    for (const headersOf of [{}, { 'content-type': 'application/json' }]) {
      const { headers } = await newParticipant(env);
      const response = await env.study.app.inject({ method: 'POST', url: '/api/sleep/consent', headers: { ...headers, ...headersOf } });
      expect(response.statusCode, JSON.stringify(headersOf)).toBe(201);
      expect(response.json()).toMatchObject({ hasConsent: true, consentVersion: '1.0' });
    }
  });

  it('keeps one consent when two arrive at once', async () => {
    const { userId, headers } = await newParticipant(env);
    const answers = await Promise.all(Array.from({ length: 5 }, () => giveConsent(headers)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().acceptedAt)).size).toBe(1);
    const rows = await env.study.deps.sql`select 1 from consents where user_id = ${userId}`;
    expect(rows).toHaveLength(1);
  });

  it('refuses an unknown consent version naming the field', async () => {
    const { headers } = await newParticipant(env);
    const response = await giveConsent(headers, { consentVersion: '9.9' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', message: 'consentVersion: Unknown consent version' });
  });

  it('waits a moment for her profile, then answers 503 if it has not reached the study', async () => {
    const { userId, headers } = await newParticipant(env);
    const [row] = await env.study.deps.sql`delete from user_directory where user_id = ${userId} returning *`;
    const started = Date.now();
    const response = await giveConsent(headers);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'unavailable', message: 'Your profile is still being set up. Please try again in a moment.' });
    expect((await consentStatus(headers)).json().hasConsent).toBe(false);

    // The profile arrives while she waits: consent goes through.
    const late = giveConsent(headers);
    // (the request is on its way and checks at once; her profile takes a bus round trip)
    await env.study.deps.sql`insert into user_directory ${env.study.deps.sql(row!)}`;
    expect((await late).statusCode).toBe(201);
  });
});
