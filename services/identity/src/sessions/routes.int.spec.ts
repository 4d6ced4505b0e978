import { internalHeaders } from '@sleepweave/service-kit';
import { openSession, PasswordChangedMeanwhile } from './commands.ts';
import { hashToken } from './tokens.ts';
import { MAX_SESSIONS_PER_USER, RETIRED_TOKEN_ACCESS_MS } from './session.ts';
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, sessionCookies, startIdentity, type Identity } from '../test/helpers.ts';

/** Headers of a call from another service (the gateway) to an internal route. */
const internal = () => internalHeaders(identity.deps.config.INTERNAL_TOKEN);

let identity: Identity;
beforeAll(async () => {
  identity = await startIdentity({
    LOGIN_FAILURES_PER_ACCOUNT: '3',
    LOGIN_FAILURES_PER_ACCOUNT_ALL_CLIENTS: '8',
    LOGIN_RATE_LIMIT_PER_IP: '1000',
  });
});
afterAll(async () => {
  await identity?.cleanup();
});

/** Why the session that retired `refreshToken` ended (null while it goes on). */
const revokeReasonOf = async (refreshToken: string) =>
  (
    await identity.deps.sql<{ revoke_reason: string | null }[]>`
      select s.revoke_reason from sessions s join session_retired_tokens r on r.session_id = s.id
      where r.refresh_token_hash = ${hashToken(refreshToken)}`
  )[0]?.revoke_reason;

const login = (email: string, password: string, ip = '10.0.0.1') =>
  identity.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip });

describe('POST /api/login', () => {
  it('signs in with the right password (e-mail in any case) and sets both cookies', async () => {
    const { body, user } = await register(identity);
    const response = await login(body.email.toUpperCase(), body.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'You have successfully logged in.', user: { id: user.id } });
    const { access, refresh } = sessionCookies(response);
    expect(access).not.toBe('');
    expect(refresh).not.toBe('');
  });

  it('over https names its cookies __Host- (Secure, Path=/, no Domain): no sibling subdomain can plant one', async () => {
    const { body } = await register(identity);
    const config = identity.context.config as { APP_URL: string };
    const appUrl = config.APP_URL;
    config.APP_URL = 'https://sleepweave.example';
    try {
      const response = await login(body.email, body.password);
      expect(response.statusCode).toBe(200);
      const set = response.cookies.map((c) => ({ name: c.name, secure: c.secure, path: c.path, domain: c.domain }));
      expect(set).toEqual([
        { name: '__Host-sw_access', secure: true, path: '/', domain: undefined },
        { name: '__Host-sw_session', secure: true, path: '/', domain: undefined },
      ]);
    } finally {
      config.APP_URL = appUrl;
    }
  });

  it('gives a wrong e-mail and a wrong password the same answer', async () => {
    const { body } = await register(identity);
    const wrongPassword = await login(body.email, 'not the password');
    const wrongEmail = await login(`nobody.${randomUUID()}@example.com`, body.password);
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(wrongEmail.json());
    expect(wrongPassword.json()).toEqual({ error: 'unauthorized', message: 'Invalid email or password' });
  });

  it('limits failures per account from one address with 429, also for an unknown e-mail', async () => {
    const { body } = await register(identity);
    for (let i = 0; i < 3; i++) expect((await login(body.email, 'wrong', '10.1.0.1')).statusCode).toBe(401);
    const locked = await login(body.email, body.password, '10.1.0.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      error: 'too_many_requests',
      message: 'Too many sign-in attempts. Please wait a few minutes and try again.',
    });

    const unknown = `ghost.${randomUUID()}@example.com`;
    for (let i = 0; i < 3; i++) await login(unknown, 'wrong');
    expect((await login(unknown, 'wrong')).statusCode).toBe(429);
  });

  it('does not lock her out where she signs in from when someone fails on purpose elsewhere', async () => {
    const { body } = await register(identity);
    for (let i = 0; i < 4; i++) await login(body.email, 'wrong', '203.0.113.7');
    expect((await login(body.email, body.password, '203.0.113.7')).statusCode).toBe(429);
    // one network: an IPv6 /64 is one client, its other addresses included
    for (let i = 0; i < 3; i++) await login(body.email, 'wrong', `2001:db8:1:2::${i + 1}`);
    expect((await login(body.email, body.password, '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
    expect((await login(body.email, body.password, '198.51.100.20')).statusCode).toBe(200);
  });

  it('forgets every failure past its window, of any e-mail, not only of the one typed again', async () => {
    const stale = `typo.${randomUUID()}@example.com`;
    await identity.deps.sql`insert into login_failures (email, client, failed_at) values (${stale}, '10.9.0.1', now() - interval '1 day')`;
    await login(`someone.${randomUUID()}@example.com`, 'wrong');
    expect(await identity.deps.sql`select 1 from login_failures where email = ${stale}`).toHaveLength(0);
  });

  it('counts only the failures within the window, whatever is left of older ones to remove', async () => {
    const { body } = await register(identity);
    const { sql } = identity.deps;
    // a burst of 200 failures a day ago (others'), and five of hers 20 minutes ago: the
    // attempt removes the oldest hundred, and hers stay a while
    await sql`
      insert into login_failures (email, client, failed_at)
      select 'burst' || i || '@example.com', '10.8.0.1', now() - interval '1 day' from generate_series(1, 200) i`;
    await sql`
      insert into login_failures (email, client, failed_at)
      select ${body.email.toLowerCase()}, '10.0.0.1', now() - interval '20 minutes' from generate_series(1, 5)`;
    // they counted all the same, and she was refused
    expect((await login(body.email, body.password)).statusCode).toBe(200);
    await sql`delete from login_failures where email like 'burst%'`;
  });

  it('limits failures per account from every address together (LOGIN_FAILURES_PER_ACCOUNT_ALL_CLIENTS)', async () => {
    const { body } = await register(identity);
    for (let i = 0; i < 8; i++) expect((await login(body.email, 'wrong', `10.3.0.${i}`)).statusCode).toBe(401);
    expect((await login(body.email, body.password, '10.3.1.1')).statusCode).toBe(429);
  });

  it('limits requests per IP with 429', async () => {
    const limited = await startIdentity({ LOGIN_RATE_LIMIT_PER_IP: '2' });
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: 'a@example.com', password: 'x' },
          remoteAddress: '10.9.9.9',
        });
      expect((await attempt()).statusCode).toBe(401);
      expect((await attempt()).statusCode).toBe(401);
      const third = await attempt();
      expect(third.statusCode).toBe(429);
      expect(third.json().error).toBe('too_many_requests');
    } finally {
      await limited.cleanup();
    }
  });

  it('answers 400 for a malformed body', async () => {
    const response = await identity.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('validation');
  });
});

describe('a sign-in racing a change of her password', () => {
  it('makes no session when the password it checked was replaced meanwhile (a reset or a change revokes only the sessions it finds)', async () => {
    const { body, user, access } = await register(identity);
    const hashOf = async () =>
      (await identity.deps.sql<{ password_hash: string }[]>`select password_hash from users where id = ${user.id}`)[0]!.password_hash;
    const checked = await hashOf();
    const changed = await identity.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { authorization: `Bearer ${access}` },
      payload: { currentPassword: body.password, newPassword: 'a brand new password', confirmPassword: 'a brand new password' },
      remoteAddress: '10.0.9.1',
    });
    expect(changed.statusCode).toBe(200);
    const sessions = async () => (await identity.deps.sql`select 1 from sessions where user_id = ${user.id}`).length;
    const before = await sessions();
    // the sign-in's last step, with the hash it verified the old password against
    await expect(openSession(identity.context, { id: user.id, role: 'participant', passwordHash: checked }, {})).rejects.toBeInstanceOf(
      PasswordChangedMeanwhile,
    );
    expect(await sessions()).toBe(before);
    // with the password she has now it goes on
    await openSession(identity.context, { id: user.id, role: 'participant', passwordHash: await hashOf() }, {});
    expect(await sessions()).toBe(before + 1);
  });
});

describe('sessions', () => {
  it('renews an access token from the refresh token while the session is active', async () => {
    const { refresh, user } = await register(identity);
    const renewed = await identity.app.inject({
      method: 'POST',
      url: '/internal/session/refresh',
      payload: { refreshToken: refresh },
      headers: internal(),
    });
    expect(renewed.statusCode).toBe(200);
    const me = await identity.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${renewed.json().accessToken}` },
    });
    expect(me.json().id).toBe(user.id);
  });

  it('renews an access token to live no longer than its session (a reset or a deletion then leaves none behind)', async () => {
    const { refresh, user } = await register(identity);
    await identity.deps.sql`update sessions set expires_at = now() + interval '60 seconds' where user_id = ${user.id}`;
    const renew = (refreshToken: string, rotate: boolean) =>
      identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken, rotate }, headers: internal() });
    const rotated = await renew(refresh, true);
    const kept = await renew(rotated.json().refresh.token as string, false); // a WebSocket's: no rotation
    for (const renewed of [rotated, kept]) {
      expect(renewed.statusCode).toBe(200);
      const payload = (renewed.json().accessToken as string).split('.')[1]!;
      const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number };
      expect(exp * 1000).toBeLessThanOrEqual(Date.now() + 61_000);
      expect(renewed.json().expiresIn).toBeLessThanOrEqual(60);
    }
  });

  it('rotates the refresh token on every use; a retired one used again (after a short grace) ends the session', async () => {
    const refresh = (refreshToken: string, rotate?: boolean) =>
      identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken, rotate }, headers: internal() });
    const { refresh: first } = await register(identity);

    const one = await refresh(first);
    expect(one.statusCode).toBe(200);
    const second = one.json().refresh.token as string;
    expect(second).not.toBe(first);
    expect(one.json().refresh.maxAgeSeconds).toBeGreaterThan(29 * 86_400);

    // the browser sent two requests with the same cookie: the second gets an access token only
    const together = await refresh(first);
    expect(together.statusCode).toBe(200);
    expect(together.json().refresh).toBeUndefined();
    // a WebSocket handshake: no rotation, the cookie it has stays valid
    const handshake = await refresh(second, false);
    expect(handshake.statusCode).toBe(200);
    expect(handshake.json().refresh).toBeUndefined();
    const two = await refresh(second);
    expect(two.statusCode).toBe(200);
    const third = two.json().refresh.token as string;

    // a minute later the first token comes back: a copy is in other hands
    identity.context.clock = () => new Date(Date.now() + 60_000);
    try {
      expect((await refresh(first)).statusCode).toBe(401);
      expect((await refresh(third)).statusCode).toBe(401); // the whole session has ended
    } finally {
      identity.context.clock = () => new Date();
    }
    expect(await revokeReasonOf(first)).toBe('refresh_token_reused');
  });

  it('takes again the token whose successor never reached her (its answer lost), and ends the session if the lost one comes after all', async () => {
    const refresh = (refreshToken: string) =>
      identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken }, headers: internal() });
    const later = (ms: number) => (identity.context.clock = () => new Date(Date.now() + ms));
    const { refresh: first } = await register(identity);
    const lost = (await refresh(first)).json().refresh.token as string; // rotated; its answer never reached her
    try {
      // ten minutes later her browser still holds the first: a new token, not the end of her session
      later(600_000);
      const again = await refresh(first);
      expect(again.statusCode).toBe(200);
      const kept = again.json().refresh.token as string;
      expect([first, lost]).not.toContain(kept);
      later(3_700_000);
      const next = await refresh(kept);
      expect(next.statusCode).toBe(200);
      // the one given up, presented after all: a copy was in other hands, the session ends
      later(7_300_000);
      expect((await refresh(lost)).statusCode).toBe(401);
      expect((await refresh(next.json().refresh.token as string)).statusCode).toBe(401);
    } finally {
      identity.context.clock = () => new Date();
    }
    expect(await revokeReasonOf(lost)).toBe('refresh_token_reused');
  });

  it('gives a retired token a moment old an access token of a minute: its next renewal, with the token she may still hold, comes inside the lost-answer window', async () => {
    const refresh = (refreshToken: string) =>
      identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken }, headers: internal() });
    const expiry = (accessToken: string) =>
      (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;
    const { refresh: first } = await register(identity);
    const lost = await refresh(first); // rotated; its answer never reached her
    expect(lost.statusCode).toBe(200);
    // a request sent with the same cookie a moment later: an access token only, for a minute, not the full 15
    const together = await refresh(first);
    expect(together.statusCode).toBe(200);
    expect(together.json().refresh).toBeUndefined();
    expect(together.json().expiresIn).toBeLessThanOrEqual(RETIRED_TOKEN_ACCESS_MS / 1000);
    expect(expiry(together.json().accessToken as string)).toBeLessThanOrEqual(Date.now() + RETIRED_TOKEN_ACCESS_MS + 1_000);
    // once it has expired her browser presents the token it still holds: replaced, her session goes on
    identity.context.clock = () => new Date(Date.now() + RETIRED_TOKEN_ACCESS_MS + 1_000);
    try {
      const renewed = await refresh(first);
      expect(renewed.statusCode).toBe(200);
      expect(renewed.json().refresh.token).toEqual(expect.any(String));
    } finally {
      identity.context.clock = () => new Date();
    }
  });

  it('gives the access token of a minute to the second of two renewals sent at the same moment, whichever commits first', async () => {
    const refresh = (refreshToken: string) =>
      identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken }, headers: internal() });
    for (let round = 0; round < 5; round++) {
      const { refresh: first } = await register(identity);
      const answers = (await Promise.all([refresh(first), refresh(first)])).map((answer) => answer.json());
      const [rotated, together] = answers[0].refresh ? answers : [answers[1], answers[0]];
      expect(rotated.refresh.token).toEqual(expect.any(String));
      expect(together.refresh).toBeUndefined();
      expect(together.expiresIn).toBeLessThanOrEqual(RETIRED_TOKEN_ACCESS_MS / 1000);
    }
  });

  it('takes the token before the current one again only within 15 minutes: later (a copy, she away) the session ends, a WebSocket renewal too', async () => {
    const refresh = (refreshToken: string, rotate = true) =>
      identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken, rotate }, headers: internal() });
    for (const rotate of [true, false]) {
      const { refresh: first } = await register(identity);
      const current = (await refresh(first)).json().refresh.token as string; // she got it, and went away
      identity.context.clock = () => new Date(Date.now() + 16 * 60_000);
      try {
        expect((await refresh(first, rotate)).statusCode).toBe(401);
        expect((await refresh(current)).statusCode).toBe(401); // the whole session has ended
      } finally {
        identity.context.clock = () => new Date();
      }
      expect(await revokeReasonOf(first)).toBe('refresh_token_reused');
    }
  });

  it('logout revokes the session: refresh refused, cookies cleared, identity.session.revoked published', async () => {
    const { access, refresh, user } = await register(identity);
    const seen: EventEnvelope[] = [];
    const watch = await identity.deps.bus.watch({
      stream: 'IDENTITY',
      types: ['identity.session.revoked'],
      since: new Date(Date.now() - 60_000),
      handler: (envelope) => {
        seen.push(envelope);
      },
    });
    try {
      const out = await identity.app.inject({
        method: 'POST',
        url: '/api/logout',
        payload: {},
        headers: { authorization: `Bearer ${access}` },
      });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ message: 'Logged out.' });
      expect(sessionCookies(out)).toEqual({ access: '', refresh: '' });

      const renewed = await identity.app.inject({
        method: 'POST',
        url: '/internal/session/refresh',
        payload: { refreshToken: refresh },
        headers: internal(),
      });
      expect(renewed.statusCode).toBe(401);

      await expect.poll(() => seen.find((e) => (e.data as { userId: string }).userId === user.id), { timeout: 3_000 }).toBeDefined();
      const event = seen.find((e) => (e.data as { userId: string }).userId === user.id)!;
      expect(event).toMatchObject({ type: 'identity.session.revoked', source: 'identity', data: { reason: 'logout', userId: user.id } });
    } finally {
      await watch.stop();
    }
  });

  it('logout with only the refresh cookie ends that session too', async () => {
    const { refresh } = await register(identity);
    const out = await identity.app.inject({ method: 'POST', url: '/api/logout', payload: {}, cookies: { sw_session: refresh } });
    expect(out.statusCode).toBe(200);
    const renewed = await identity.app.inject({
      method: 'POST',
      url: '/internal/session/refresh',
      payload: { refreshToken: refresh },
      headers: internal(),
    });
    expect(renewed.statusCode).toBe(401);
  });

  it('keeps at most MAX_SESSIONS_PER_USER sessions of hers: a sign-in past it ends her oldest', async () => {
    const { user, refresh: first } = await register(identity);
    // her first (registration's), then 99 more
    for (let i = 1; i < MAX_SESSIONS_PER_USER; i++) await openSession(identity.context, { id: user.id, role: 'participant' }, {});
    const active = async () =>
      (
        await identity.deps.sql<{ n: number }[]>`
          select count(*)::int as n from sessions where user_id = ${user.id} and revoked_at is null`
      )[0]!.n;
    expect(await active()).toBe(MAX_SESSIONS_PER_USER);
    const refresh = (refreshToken: string) =>
      identity.app.inject({ method: 'POST', url: '/internal/session/refresh', payload: { refreshToken }, headers: internal() });
    expect((await refresh(first)).statusCode).toBe(200);

    const newest = await openSession(identity.context, { id: user.id, role: 'participant' }, {});
    expect(await active()).toBe(MAX_SESSIONS_PER_USER);
    // the registration's session, the oldest, ended; the newest works
    const [ended] = await identity.deps.sql<{ revoke_reason: string }[]>`
      select s.revoke_reason from sessions s where s.user_id = ${user.id} and s.revoked_at is not null`;
    expect(ended?.revoke_reason).toBe('session_limit');
    expect((await refresh(first)).statusCode).toBe(401);
    expect((await refresh(newest.refreshToken)).statusCode).toBe(200);
  });

  it('keeps the cap when her sign-ins come at the same moment (each waits for the one before)', async () => {
    const { user } = await register(identity);
    for (let i = 1; i < MAX_SESSIONS_PER_USER; i++) await openSession(identity.context, { id: user.id, role: 'participant' }, {});
    const issued = await Promise.all(
      Array.from({ length: 8 }, () => openSession(identity.context, { id: user.id, role: 'participant' }, {})),
    );
    const [counts] = await identity.deps.sql<{ active: number; limited: number }[]>`
      select count(*) filter (where revoked_at is null)::int as active,
             count(*) filter (where revoke_reason = 'session_limit')::int as limited
      from sessions where user_id = ${user.id}`;
    expect(counts).toEqual({ active: MAX_SESSIONS_PER_USER, limited: issued.length });
    // the eight new ones are among those left
    const left = await identity.deps.sql<{ id: string }[]>`
      select id from sessions where user_id = ${user.id} and revoked_at is null and id = any(${issued.map((s) => s.sessionId)}::uuid[])`;
    expect(left).toHaveLength(issued.length);
  });

  it('serves its public keys as a JWKS without private parts', async () => {
    const response = await identity.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(response.statusCode).toBe(200);
    const { keys } = response.json();
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0].kid).toBeTruthy();
    expect(keys[0]).not.toHaveProperty('d');
  });
});

describe('per-account limit under parallel guessing', () => {
  it('checks at most LOGIN_FAILURES_PER_ACCOUNT passwords from one address however many arrive at once', async () => {
    const { body } = await register(identity);
    const guesses = Array.from({ length: 20 }, (_, i) => login(body.email, `guess number ${i}`, '10.2.0.1'));
    const statuses = (await Promise.all(guesses)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it('and LOGIN_FAILURES_PER_ACCOUNT_ALL_CLIENTS from many', async () => {
    const { body } = await register(identity);
    const guesses = Array.from({ length: 20 }, (_, i) => login(body.email, `guess number ${i}`, `10.4.0.${i}`));
    const statuses = (await Promise.all(guesses)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(8);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
  });
});
