import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRegistration, register, sessionCookies, startIdentity, type Identity } from '../test/helpers.ts';

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

describe('GET /api/user and /api/auth/user', () => {
  it('answers 401 without a session', async () => {
    const response = await identity.app.inject({ method: 'GET', url: '/api/user' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('unauthorized');
  });

  it('answers 401 for a forged token', async () => {
    const response = await identity.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } });
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
