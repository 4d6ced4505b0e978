import { internalHeaders } from '@sleepweave/service-kit';
import { explainAnalyze, totalRowsRead } from '@sleepweave/service-kit/testing';
import { createHash, randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetLinkIn, startMailCatcher, type MailCatcher } from '../test/mail-catcher.ts';
import { randomIp, register, sessionCookies, startIdentity, type Identity } from '../test/helpers.ts';
import { FORGOT_PASSWORD_MESSAGE, PASSWORD_RESET_DONE } from './routes.ts';
import { expiredRows } from '../expired-rows.ts';

/** Headers of a call from another service (the gateway) to an internal route. */
const internal = () => internalHeaders(identity.deps.config.INTERNAL_TOKEN);

const APP_URL = 'http://sleepweave.test';
const MIN_RESPONSE_MS = 400;
let mail: MailCatcher;
let identity: Identity;

beforeAll(async () => {
  mail = await startMailCatcher();
  identity = await startIdentity({
    SMTP_URL: mail.url,
    APP_URL,
    FORGOT_PASSWORD_MIN_RESPONSE_MS: String(MIN_RESPONSE_MS),
    PASSWORD_RESET_RATE_LIMIT_PER_IP: '1000',
  });
});
afterAll(async () => {
  await identity?.cleanup();
  await mail?.close();
});
afterEach(() => {
  identity.context.clock = () => new Date();
});

const ip = randomIp;

const forgot = (email: string, remoteAddress = ip()) =>
  identity.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email }, remoteAddress });
const validate = (token: string) =>
  identity.app.inject({ method: 'GET', url: `/api/validate-reset-token?token=${encodeURIComponent(token)}` });
const reset = (token: string, password: string) =>
  identity.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password } });
const login = (email: string, password: string) =>
  identity.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip() });
const refresh = (refreshToken: string) =>
  identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken }, headers: internal() });

/** Asks for a link and returns the token from the e-mail that arrives. */
async function tokenFromMail(email: string): Promise<{ link: string; token: string }> {
  const already = mail.mails.filter((m) => m.to.includes(email.toLowerCase())).length;
  expect((await forgot(email)).statusCode).toBe(200);
  await expect.poll(() => mail.mails.filter((m) => m.to.includes(email.toLowerCase())).length, { timeout: 5_000 }).toBe(already + 1);
  const received = mail.mails.filter((m) => m.to.includes(email.toLowerCase())).at(-1)!;
  const link = resetLinkIn(received);
  return { link, token: new URL(link).searchParams.get('token')! };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('POST /api/forgot-password', () => {
  it('answers an unknown and a registered e-mail identically, in about the same time', async () => {
    const { body } = await register(identity);
    const unknown = `nobody.${randomUUID()}@example.com`;

    const known = await forgot(body.email);
    const stranger = await forgot(unknown);
    expect(known.statusCode).toBe(200);
    expect(stranger.statusCode).toBe(200);
    expect(known.body).toBe(stranger.body);
    expect(known.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    expect(known.headers['content-type']).toBe(stranger.headers['content-type']);
    expect(known.headers['content-length']).toBe(stranger.headers['content-length']);

    // Timing: alternate both kinds (fresh e-mails, below the per-e-mail limit) and compare.
    const timings = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 5; i++) {
      const person = await register(identity);
      for (const [kind, email] of [
        ['known', person.body.email],
        ['unknown', `nobody.${randomUUID()}@example.com`],
      ] as const) {
        const started = performance.now();
        expect((await forgot(email)).statusCode).toBe(200);
        timings[kind].push(performance.now() - started);
      }
    }
    console.info(
      `forgot-password ms, registered: ${timings.known.map(Math.round).join(', ')}; unknown: ${timings.unknown.map(Math.round).join(', ')}`,
    );
    for (const t of [...timings.known, ...timings.unknown]) expect(t).toBeGreaterThanOrEqual(MIN_RESPONSE_MS - 5);
    expect(Math.abs(median(timings.known) - median(timings.unknown))).toBeLessThan(50);

    // Only the registered address gets mail.
    await mail.waitForMail(body.email);
    expect(mail.mails.some((m) => m.to.includes(unknown))).toBe(false);
  });

  it('sends a friendly e-mail with the link <APP_URL>/reset-password?token=... (at least 128 bits)', async () => {
    const { body } = await register(identity);
    const { link, token } = await tokenFromMail(body.email);
    expect(link.startsWith(`${APP_URL}/reset-password?token=`)).toBe(true);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const received = mail.mails.find((m) => m.to.includes(body.email.toLowerCase()))!;
    expect(received.raw).toMatch(/Subject: Reset your Sleepweave password/);
    expect(received.raw).toMatch(/Content-Type: text\/plain/);
    expect(received.raw).toMatch(/Content-Type: text\/html/);
    expect(received.raw).toContain('Hello,');
    // no words of the account's: whoever registered the address (unverified) chose its name
    expect(received.raw).not.toContain('Maya');
  });

  it('stores only the SHA-256 of the token, never the token itself', async () => {
    const { body, user } = await register(identity);
    const { token } = await tokenFromMail(body.email);
    const sha = createHash('sha256').update(token).digest('hex');
    const { sql } = identity.deps;
    expect(await sql`select 1 from events where data::text like ${`%${token}%`} or metadata::text like ${`%${token}%`}`).toHaveLength(0);
    expect(await sql`select 1 from password_reset_tokens where token_hash = ${token}`).toHaveLength(0);
    const [row] = await sql`select user_id from password_reset_tokens where token_hash = ${sha}`;
    expect(row?.user_id).toBe(user.id);
  });

  it('sends at most PASSWORD_RESET_REQUESTS_PER_EMAIL links a window, answering every request alike (a 429 let others keep her from asking)', async () => {
    const { body } = await register(identity);
    const unknown = `ghost.${randomUUID()}@example.com`;
    const mailsTo = (email: string) => mail.mails.filter((m) => m.to.includes(email.toLowerCase())).length;
    for (const email of [body.email, unknown]) {
      for (let i = 0; i < 5; i++) {
        const answer = await forgot(email, ip());
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
      }
    }
    await expect.poll(() => mailsTo(body.email), { timeout: 5_000 }).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(body.email)).toBe(3);
    expect(mailsTo(unknown)).toBe(0);
    // once the window has passed, a link goes again
    identity.context.clock = () => new Date(Date.now() + 16 * 60_000);
    expect((await forgot(body.email)).statusCode).toBe(200);
    await expect.poll(() => mailsTo(body.email), { timeout: 5_000 }).toBe(4);
  });

  it('forgets every request past its window, of any e-mail, along an index and a few at a time', async () => {
    const { sql } = identity.deps;
    // a burst of 5,000 addresses a minute ago, and 150 requests of an hour ago
    await sql`
      insert into password_reset_requests (email, requested_at)
      select 'burst' || i || '@example.com', now() - case when i <= 150 then interval '1 hour' else interval '1 minute' end
      from generate_series(1, 5150) i`;
    await sql`analyze password_reset_requests`;
    const old = async () =>
      (
        await sql<
          { n: number }[]
        >`select count(*)::int as n from password_reset_requests where requested_at < now() - interval '30 minutes'`
      )[0]!.n;
    expect((await forgot(`someone.${randomUUID()}@example.com`)).statusCode).toBe(200);
    // one request removes a hundred of them (it used to wait for, and delete, all at once)
    expect(await old()).toBe(50);
    // what a request reads for them: those past the window, not the burst's (5,050 without the index)
    const plan = await explainAnalyze(sql, expiredRows(sql, 'password_reset_requests', new Date(Date.now() - 15 * 60_000)));
    expect(totalRowsRead(plan)).toBeLessThanOrEqual(100);
    await sql`delete from password_reset_requests where email like 'burst%'`;
  });

  it('limits requests per IP with 429', async () => {
    const limited = await startIdentity({ PASSWORD_RESET_RATE_LIMIT_PER_IP: '2', FORGOT_PASSWORD_MIN_RESPONSE_MS: '0' });
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/forgot-password',
          payload: { email: `x.${randomUUID()}@example.com` },
          remoteAddress: '10.9.9.9',
        });
      expect((await attempt()).statusCode).toBe(200);
      expect((await attempt()).statusCode).toBe(200);
      const third = await attempt();
      expect(third.statusCode).toBe(429);
      expect(third.json()).toEqual({
        error: 'too_many_requests',
        message: 'Too many password reset requests. Please wait a few minutes and try again.',
      });
    } finally {
      await limited.cleanup();
    }
  });

  it('answers 400 naming the field for an e-mail that is not one', async () => {
    const response = await forgot('not-an-email');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', message: 'email: Please enter a valid email address' });
  });
});

describe('resetting with the link', () => {
  it('resets the password once and only once; the old password stops working', async () => {
    const { body } = await register(identity);
    const { token } = await tokenFromMail(body.email);

    const valid = await validate(token);
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toEqual({ valid: true, message: 'Reset token is valid' });

    const done = await reset(token, 'a brand new password');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: PASSWORD_RESET_DONE });

    expect((await login(body.email, 'a brand new password')).statusCode).toBe(200);
    expect((await login(body.email, body.password)).statusCode).toBe(401);

    const again = await reset(token, 'yet another password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_token', message: 'Invalid or expired reset token' });
    const check = await validate(token);
    expect(check.statusCode).toBe(400);
    expect(check.json()).toEqual({ error: 'invalid_token', message: 'Invalid or expired reset token' });
    expect((await login(body.email, 'a brand new password')).statusCode).toBe(200);
  });

  it('refuses an expired link (60 minutes), time moved forward instead of waiting', async () => {
    const { body } = await register(identity);
    const { token } = await tokenFromMail(body.email);

    identity.context.clock = () => new Date(Date.now() + 59 * 60_000);
    expect((await validate(token)).statusCode).toBe(200);

    identity.context.clock = () => new Date(Date.now() + 61 * 60_000);
    expect((await validate(token)).json()).toEqual({ error: 'invalid_token', message: 'Invalid or expired reset token' });
    const late = await reset(token, 'too late for this one');
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe('Invalid or expired reset token');
    expect((await login(body.email, body.password)).statusCode).toBe(200);
  });

  it('ends every session of hers: refresh refused, identity.session.revoked (password_reset) published', async () => {
    const { body, user, refresh: first } = await register(identity);
    const second = sessionCookies(await login(body.email, body.password)).refresh;
    const seen: EventEnvelope[] = [];
    const watch = await identity.deps.bus.watch({
      stream: 'IDENTITY',
      types: ['identity.session.revoked'],
      since: new Date(Date.now() - 60_000),
      handler: (e) => {
        if ((e.data as { userId: string }).userId === user.id) seen.push(e);
      },
    });
    try {
      const { token } = await tokenFromMail(body.email);
      const done = await reset(token, 'a brand new password');
      expect(done.statusCode).toBe(200);
      // the browser that reset is signed out too
      expect(sessionCookies(done)).toEqual({ access: '', refresh: '' });
      expect((await refresh(first)).statusCode).toBe(401);
      expect((await refresh(second)).statusCode).toBe(401);
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(2);
      expect(seen.map((e) => (e.data as { reason: string }).reason)).toEqual(['password_reset', 'password_reset']);
    } finally {
      await watch.stop();
    }
  });

  it('voids an outstanding link when she changes her password', async () => {
    const { body, access } = await register(identity);
    const { token } = await tokenFromMail(body.email);
    const changed = await identity.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { authorization: `Bearer ${access}` },
      payload: { currentPassword: body.password, newPassword: 'changed in settings', confirmPassword: 'changed in settings' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await reset(token, 'from the old link')).statusCode).toBe(400);
  });

  it('refuses a password too common to use, and the link still works for a better one', async () => {
    const { body } = await register(identity);
    const { token } = await tokenFromMail(body.email);
    const common = await reset(token, 'football1');
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual({
      error: 'validation',
      message: 'password: This password is too common and easy to guess. Please choose another.',
    });
    // nor her own e-mail address (as an outside tester set)
    const own = await reset(token, body.email.toLowerCase());
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toMatch(/^password: .*too easy to guess/);
    expect((await reset(token, 'a much less common passphrase')).statusCode).toBe(200);
  });

  it('refuses a made-up token, a missing token and a short password with clear messages', async () => {
    expect((await validate('made-up-token')).json()).toEqual({ error: 'invalid_token', message: 'Invalid or expired reset token' });
    const missing = await identity.app.inject({ method: 'GET', url: '/api/validate-reset-token' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('token: No reset token provided');
    const short = await reset('whatever', 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ error: 'validation', message: 'password: Password must be at least 8 characters long' });
  });
});
