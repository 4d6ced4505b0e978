import { internalHeaders } from '@sleepweave/service-kit';
import { holdStreamLock, untilBlocked } from '@sleepweave/service-kit/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { userStreamId } from './user.ts';
import { PASSWORD_CHANGED_MEANWHILE } from './routes.ts';
import { OWN_DETAILS_WARNING, WEAK_PASSWORD_MESSAGE } from './password-strength.ts';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRegistration, randomIp, register, sessionCookies, startIdentity, type Identity } from '../test/helpers.ts';

/** Headers of a call from another service (the gateway) to an internal route. */
const internal = () => internalHeaders(identity.deps.config.INTERNAL_TOKEN);

let identity: Identity;
beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(async () => {
  await identity?.cleanup();
});

describe('POST /api/register', () => {
  it('creates the user, normalises the e-mail, signs her in and never returns the hash', async () => {
    const body = newRegistration();
    const response = await identity.app.inject({ method: 'POST', url: '/api/register', payload: body });
    expect(response.statusCode).toBe(201);
    const json = response.json();
    expect(json.message).toBe('Account created successfully! Redirecting...');
    expect(json.user).toMatchObject({
      email: body.email.toLowerCase(),
      firstName: 'Maya',
      lastName: 'Lindqvist',
      dateOfBirth: '1972-04-18',
      timezone: 'Europe/London',
      hormonalStage: 'Perimenopause',
      role: 'participant',
    });
    expect(JSON.stringify(json)).not.toMatch(/argon2|passwordHash|password_hash/);

    const { access, refresh } = sessionCookies(response);
    expect(access).not.toBe('');
    expect(refresh).not.toBe('');
    const cookie = response.headers['set-cookie'] as string[];
    expect(cookie.join(';')).toMatch(/HttpOnly/);
    expect(cookie.join(';')).toMatch(/SameSite=Lax/);
  });

  it('answers 409 with a clear message for an e-mail already registered (in any letter case)', async () => {
    const first = await register(identity);
    const again = await identity.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: newRegistration({ email: first.body.email.toUpperCase() }),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'conflict', message: 'An account with this email already exists.' });
  });

  it.each([
    [{ password: 'short', confirmPassword: 'short' }, 'password: Password must be at least 8 characters long'],
    [{ confirmPassword: 'something else' }, "confirmPassword: Passwords don't match"],
    [{ email: 'not-an-email' }, 'email: Please enter a valid email address'],
    [{ dateOfBirth: '1980-02-30' }, 'dateOfBirth: Not a real calendar date'],
    [{ timezone: 'Mars/Olympus' as never }, 'timezone:'],
    [{ firstName: '   ' }, 'firstName: First name is required'],
  ])('refuses %j with 400 naming the field', async (overrides, message) => {
    const response = await identity.app.inject({ method: 'POST', url: '/api/register', payload: newRegistration(overrides) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('validation');
    expect(response.json().message).toContain(message);
  });
});

describe('common passwords', () => {
  const tooCommon = 'This password is too common and easy to guess. Please choose another.';

  it('are refused at sign-up, whatever their letter case', async () => {
    for (const password of ['sunshine1', 'Password123', 'QWERTYUIOP']) {
      const body = newRegistration({ password, confirmPassword: password });
      const response = await identity.app.inject({ method: 'POST', url: '/api/register', payload: body, remoteAddress: randomIp() });
      expect(response.statusCode, password).toBe(400);
      expect(response.json()).toEqual({ error: 'validation', message: `password: ${tooCommon}` });
    }
  });

  it('are refused as a new password', async () => {
    const { body, access } = await register(identity);
    const response = await identity.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { authorization: `Bearer ${access}` },
      payload: { currentPassword: body.password, newPassword: 'iloveyou2', confirmPassword: 'iloveyou2' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(`newPassword: ${tooCommon}`);
  });
});

describe('passwords too easy to guess', () => {
  const weak = 'This password is too easy to guess. Please choose another: a few words that do not belong together make a strong one.';

  it('are refused at sign-up: a repeat, a sequence, her e-mail, her name and year of birth, the study words', async () => {
    const email = `maya.weak.${randomUUID().slice(0, 8)}@example.com`;
    for (const password of ['aaaaaaaa', 'abcabcabc', email, 'MayaLindqvist72', 'Lindqvist1972', 'sleepweave42', 'Sleepweave2026']) {
      const body = newRegistration({ email, password, confirmPassword: password });
      const response = await identity.app.inject({ method: 'POST', url: '/api/register', payload: body, remoteAddress: randomIp() });
      expect(response.statusCode, password).toBe(400);
      expect(response.json().message, password).toMatch(new RegExp(`^password: (.+ )?${weak.replace(/[.:]/g, '\\$&')}$`));
    }
    // and zxcvbn's own warning, when it gives one
    const body = newRegistration({ password: 'bbbbbbbb', confirmPassword: 'bbbbbbbb' });
    const response = await identity.app.inject({ method: 'POST', url: '/api/register', payload: body, remoteAddress: randomIp() });
    expect(response.json().message).toBe(`password: Repeated characters like "aaa" are easy to guess. ${weak}`);
  });

  it('count toward the sign-up limit of an address, whose 429 speaks of attempts, not of accounts made', async () => {
    const from = randomIp();
    const attempt = () =>
      identity.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: newRegistration({ password: 'aaaaaaaa', confirmPassword: 'aaaaaaaa' }),
        remoteAddress: from,
      });
    for (let i = 0; i < identity.deps.config.REGISTER_RATE_LIMIT_PER_IP; i++) expect((await attempt()).statusCode).toBe(400);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many sign-up attempts from here. Please wait a few minutes and try again.');
  });

  it('are refused as a new password (her own e-mail) and at a reset; a strong one is taken', async () => {
    const { body, access } = await register(identity);
    const change = (newPassword: string) =>
      identity.app.inject({
        method: 'POST',
        url: '/api/account/password',
        headers: { authorization: `Bearer ${access}` },
        payload: { currentPassword: body.password, newPassword, confirmPassword: newPassword },
      });
    const refused = await change(body.email.toLowerCase());
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(`newPassword: ${OWN_DETAILS_WARNING} ${WEAK_PASSWORD_MESSAGE}`);
    expect((await change('quilt harbour nineteen')).statusCode).toBe(200);
  });
});

describe('GET /api/user and /api/auth/user', () => {
  it('answers 401 without a session', async () => {
    const response = await identity.app.inject({ method: 'GET', url: '/api/user' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('unauthorized');
  });

  it('answers 401 for a forged token', async () => {
    const response = await identity.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('returns the signed-in user; auth/user adds studyStartDate (null before consent)', async () => {
    const { access, user } = await register(identity);
    const me = await identity.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${access}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);
    expect(me.json()).not.toHaveProperty('studyStartDate');
    const auth = await identity.app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: `Bearer ${access}` } });
    expect(auth.json()).toMatchObject({ id: user.id, studyStartDate: null });
  });
});

describe('PUT /api/profile', () => {
  const put = (access: string, payload: Record<string, unknown>) =>
    identity.app.inject({ method: 'PUT', url: '/api/profile', headers: { authorization: `Bearer ${access}` }, payload });
  const profile = { firstName: 'Maya', lastName: 'Berg', timezone: 'Europe/Paris', hormonalStage: 'Post menopause' };

  it('changes names, timezone and hormonal stage, keeps the e-mail, and publishes the whole profile', async () => {
    const { access, user } = await register(identity);
    const seen: EventEnvelope[] = [];
    const watch = await identity.deps.bus.watch({
      stream: 'IDENTITY',
      types: ['identity.user.profile_updated'],
      since: new Date(Date.now() - 60_000),
      handler: (e) => {
        if ((e.data as { userId: string }).userId === user.id) seen.push(e);
      },
    });
    try {
      const response = await put(access, { ...profile, firstName: '  Maya  ' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: user.id, email: user.email, ...profile });
      const me = await identity.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${access}` } });
      expect(me.json()).toMatchObject(profile);

      await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(1);
      expect(seen[0]!.data).toEqual({
        userId: user.id,
        firstName: 'Maya',
        lastName: 'Berg',
        dateOfBirth: '1972-04-18',
        timezone: 'Europe/Paris',
        hormonalStage: 'Post menopause',
        profileImageUrl: null,
        updatedAt: expect.any(String),
      });
    } finally {
      await watch.stop();
    }
  });

  it.each([
    [{ hormonalStage: 'Teen' }, 'hormonalStage:'],
    [{ timezone: 'Mars/Olympus' }, 'timezone:'],
    [{ lastName: ' ' }, 'lastName: Last name is required'],
  ])('refuses %j with 400 naming the field', async (overrides, message) => {
    const { access } = await register(identity);
    const response = await put(access, { ...profile, ...overrides });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('stamps a change once her turn has come, so that the newest stamp is the last change committed', async () => {
    const { access, user } = await register(identity);
    const { sql } = identity.deps;
    // another change of hers holds her stream (a second save, another identity instance)
    const other = await holdStreamLock(sql, userStreamId(user.id));
    const saving = put(access, profile);
    await sleep(300);
    const releasedAt = await other.release();
    expect((await saving).statusCode).toBe(200);
    const [event] = await sql<{ updated_at: string }[]>`
      select data->>'updatedAt' as updated_at from events
      where stream_id = ${userStreamId(user.id)} and type = 'ProfileUpdated'`;
    expect(Date.parse(event!.updated_at)).toBeGreaterThanOrEqual(releasedAt);
  });

  it('two tabs: a field one left as it was keeps what the other saved; a field both changed is a 409 naming it, nothing saved', async () => {
    const { access } = await register(identity);
    const filledFrom = { firstName: 'Maya', lastName: 'Lindqvist', timezone: 'Europe/London', hormonalStage: 'Perimenopause' };
    // tab A moves her to Los Angeles
    const a = await put(access, { ...filledFrom, timezone: 'America/Los_Angeles', expected: filledFrom });
    expect(a.statusCode).toBe(200);
    // tab B, filled before that, changes her first name: her timezone stays Los Angeles
    const b = await put(access, { ...filledFrom, firstName: 'May', expected: filledFrom });
    expect(b.statusCode).toBe(200);
    expect(b.json()).toMatchObject({ firstName: 'May', timezone: 'America/Los_Angeles' });
    // tab B again, still from the old form, sets the timezone to Paris: changed meanwhile
    const c = await put(access, { ...filledFrom, firstName: 'May', timezone: 'Europe/Paris', expected: filledFrom });
    expect(c.statusCode).toBe(409);
    expect(c.json()).toEqual({
      error: 'changed_meanwhile',
      message:
        'Your timezone was changed to “America/Los_Angeles” in another tab or on another device since you opened this page, so nothing was saved now. Your changes are still in the form: save again to keep yours.',
    });
    const me = await identity.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${access}` } });
    expect(me.json()).toMatchObject({ firstName: 'May', timezone: 'America/Los_Angeles' });
    // without it, the whole profile is replaced (the spec's body)
    const d = await put(access, filledFrom);
    expect(d.json()).toMatchObject(filledFrom);
  });

  it('answers 401 without a session', async () => {
    const response = await identity.app.inject({ method: 'PUT', url: '/api/profile', payload: profile });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/account/password', () => {
  const change = (access: string, payload: Record<string, unknown>) =>
    identity.app.inject({ method: 'POST', url: '/api/account/password', headers: { authorization: `Bearer ${access}` }, payload });

  it('needs the current password; ends her other sessions and keeps this one', async () => {
    const { body, access, refresh } = await register(identity);
    const other = sessionCookies(
      await identity.app.inject({ method: 'POST', url: '/api/login', payload: { email: body.email, password: body.password } }),
    );

    const wrong = await change(access, {
      currentPassword: 'not my password',
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: 'wrong_password', message: 'Your current password is not correct.' });

    const done = await change(access, { currentPassword: body.password, newPassword: 'a new password', confirmPassword: 'a new password' });
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe('Your password has been changed. You have been signed out on your other devices.');

    const refreshWith = (refreshToken: string) =>
      identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken }, headers: internal() });
    expect((await refreshWith(refresh)).statusCode).toBe(200);
    expect((await refreshWith(other.refresh)).statusCode).toBe(401);

    const signIn = (password: string) =>
      identity.app.inject({ method: 'POST', url: '/api/login', payload: { email: body.email, password } });
    expect((await signIn('a new password')).statusCode).toBe(200);
    expect((await signIn(body.password)).statusCode).toBe(401);
  });

  it('refuses a change checked against a password that another change replaced meanwhile', async () => {
    const { body, user, access } = await register(identity);
    // Two changes made with the same current password (hers, and someone else's who knows
    // it), each checked before either's turn on her stream came: the one whose turn comes
    // second no longer has the current password.
    const held = await holdStreamLock(identity.deps.sql, userStreamId(user.id));
    const first = change(access, {
      currentPassword: body.password,
      newPassword: 'first new password',
      confirmPassword: 'first new password',
    });
    await untilBlocked(identity.deps.sql, { waiting: 1 });
    const second = change(access, {
      currentPassword: body.password,
      newPassword: 'second new password',
      confirmPassword: 'second new password',
    });
    await untilBlocked(identity.deps.sql, { waiting: 2 });
    await held.release();
    expect((await first).statusCode).toBe(200);
    const refused = await second;
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'conflict', message: PASSWORD_CHANGED_MEANWHILE });

    const signIn = (password: string) =>
      identity.app.inject({ method: 'POST', url: '/api/login', payload: { email: body.email, password }, remoteAddress: randomIp() });
    expect((await signIn('first new password')).statusCode).toBe(200);
    expect((await signIn('second new password')).statusCode).toBe(401);
    const changes = await identity.deps.sql`select 1 from events where stream_id = ${userStreamId(user.id)} and type = 'PasswordChanged'`;
    expect(changes).toHaveLength(1);
  });

  it.each([
    [{ confirmPassword: 'something else' }, 'confirmPassword: Passwords do not match'],
    [{ newPassword: 'short', confirmPassword: 'short' }, 'newPassword: Password must be at least 8 characters long'],
  ])('refuses %j with 400 naming the field', async (overrides, message) => {
    const { body, access } = await register(identity);
    const base: Record<string, string> = {
      currentPassword: body.password,
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    };
    const response = await change(access, { ...base, ...overrides });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });
});
