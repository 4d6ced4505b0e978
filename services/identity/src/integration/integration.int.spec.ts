import { randomUUID } from 'node:crypto';
import { internalHeaders } from '@sleepweave/service-kit';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAdmin, grantAdminEmails, setRole } from '../users/commands.ts';
import { register, startIdentity, type Identity } from '../test/helpers.ts';

let identity: Identity;
beforeAll(async () => {
  identity = await startIdentity({ ADMIN_EMAILS: 'boss@example.com' });
});
afterAll(async () => {
  await identity?.cleanup();
});

const authUser = (access: string) =>
  identity.app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: `Bearer ${access}` } });

function consentGiven(userId: string, studyStartDate: string): EventEnvelope {
  return testEnvelope('study.consent.given', { userId, consentVersion: '1.0', acceptedAt: new Date().toISOString(), studyStartDate });
}

describe('events', () => {
  it('publishes identity.user.registered without the password hash', async () => {
    const seen: EventEnvelope[] = [];
    const watch = await identity.deps.bus.watch({
      stream: 'IDENTITY',
      types: ['identity.user.registered'],
      since: new Date(Date.now() - 60_000),
      handler: (e) => {
        seen.push(e);
      },
    });
    try {
      const { user } = await register(identity);
      await expect.poll(() => seen.some((e) => e.subject === `user:${user.id}`), { timeout: 3_000 }).toBe(true);
      const event = seen.find((e) => e.subject === `user:${user.id}`)!;
      expect(event.data).toMatchObject({ userId: user.id, email: user.email, role: 'participant' });
      expect(JSON.stringify(event)).not.toMatch(/passwordHash|argon2/);
    } finally {
      await watch.stop();
    }
  });

  it('learns studyStartDate from study.consent.given, once (a second consent does not move it)', async () => {
    const { access, user } = await register(identity);
    await identity.deps.bus.publish(consentGiven(user.id, '2026-11-20'));
    await expect.poll(async () => (await authUser(access)).json().studyStartDate, { timeout: 5_000 }).toBe('2026-11-20');

    const redelivered = consentGiven(user.id, '2026-12-01');
    await identity.deps.bus.publish(redelivered);
    await identity.deps.bus.publish(redelivered);
    // wait until the consumer has seen it (its inbox row), then check nothing moved
    await expect
      .poll(async () => (await identity.deps.sql`select 1 from inbox where event_id = ${redelivered.id}`).length, { timeout: 5_000 })
      .toBe(1);
    expect((await authUser(access)).json().studyStartDate).toBe('2026-11-20');
  });

  it('never makes an admin at registration, nor at a later start when the address was listed before she registered', async () => {
    // identity started with boss@example.com listed and no such account
    const { user } = await register(identity, { email: 'Boss@Example.com' });
    const role = async () => (await identity.deps.sql`select role from users where id = ${user.id}`)[0]?.role;
    expect(await role()).toBe('participant');
    await grantAdminEmails(identity.context, identity.deps.config.ADMIN_EMAILS);
    expect(await role()).toBe('participant');
    expect(await grantAdmin(identity.context, 'boss@example.com')).toBe('granted');
    expect(await role()).toBe('admin');
  });

  it('reads a listed address once: its account is made an admin, and a role revoked later stays revoked', async () => {
    const { user } = await register(identity, { email: 'chief@example.com' });
    await register(identity, { email: 'deputy@example.com' });
    await grantAdmin(identity.context, 'deputy@example.com'); // so that chief is not the last admin
    const role = async () => (await identity.deps.sql`select role from users where id = ${user.id}`)[0]?.role;
    await grantAdminEmails(identity.context, ['chief@example.com']);
    expect(await role()).toBe('admin');
    expect(await setRole(identity.context, user.id, 'participant', {})).toBe('granted');
    // the next start, still listing her
    await grantAdminEmails(identity.context, ['chief@example.com']);
    expect(await role()).toBe('participant');
    const read = await identity.deps
      .sql`select email, granted from admin_emails_read where email in ('boss@example.com', 'chief@example.com') order by email`;
    expect(read.map((row) => ({ ...row }))).toEqual([
      { email: 'boss@example.com', granted: false },
      { email: 'chief@example.com', granted: true },
    ]);
  });
});

describe('admin grant', () => {
  it('makes a registered user an admin once and publishes identity.user.role_granted', async () => {
    const seen: EventEnvelope[] = [];
    const watch = await identity.deps.bus.watch({
      stream: 'IDENTITY',
      types: ['identity.user.role_granted'],
      since: new Date(Date.now() - 60_000),
      handler: (e) => {
        seen.push(e);
      },
    });
    try {
      const { user } = await register(identity);
      expect(await grantAdmin(identity.context, user.email)).toBe('granted');
      expect(await grantAdmin(identity.context, user.email)).toBe('already_admin');
      expect(await grantAdmin(identity.context, `nobody.${randomUUID()}@example.com`)).toBe('no_such_user');
      await expect.poll(() => seen.filter((e) => e.subject === `user:${user.id}`).length, { timeout: 3_000 }).toBe(1);
      expect(seen.find((e) => e.subject === `user:${user.id}`)!.data).toMatchObject({ userId: user.id, role: 'admin' });
    } finally {
      await watch.stop();
    }
  });
});

describe('GET /internal/events (its integration history)', () => {
  const history = (query: string, headers: Record<string, string> = internalHeaders(identity.deps.config.INTERNAL_TOKEN)) =>
    identity.app.inject({ method: 'GET', url: `/internal/events?${query}`, headers });
  const all = async (types: string) => {
    const events: EventEnvelope[] = [];
    let after = '0:0';
    for (;;) {
      const page = (await history(`after=${after}&types=${types}&limit=2`)).json() as {
        events: EventEnvelope[];
        next: string;
        end: boolean;
      };
      events.push(...page.events);
      after = page.next;
      if (page.end) return events;
    }
  };

  it('serves what the relay publishes, page by page: nothing private, a deleted user only as her deletion', async () => {
    const kept = await register(identity);
    const gone = await register(identity);
    const changed = await identity.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { authorization: `Bearer ${kept.access}` },
      payload: { currentPassword: kept.body.password, newPassword: 'another long passphrase', confirmPassword: 'another long passphrase' },
    });
    expect(changed.statusCode).toBe(200);
    const deleted = await identity.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { authorization: `Bearer ${gone.access}` },
      payload: { password: gone.body.password },
    });
    expect(deleted.statusCode).toBe(200);

    const events = await all('identity.user.registered,identity.user.deleted');
    expect(events.some((e) => e.type === 'identity.user.registered' && (e.data as { userId: string }).userId === kept.user.id)).toBe(true);
    expect(events.filter((e) => JSON.stringify(e).includes(gone.user.id)).map((e) => e.type)).toEqual(['identity.user.deleted']);
    expect(JSON.stringify(events)).not.toMatch(/passwordHash|argon2|PasswordChanged|refreshToken/);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['identity.user.registered', 'identity.user.deleted']));
  });

  it('answers only a caller with the internal token', async () => {
    expect((await history('types=identity.user.registered', {})).statusCode).toBe(401);
    expect((await history('types=identity.user.registered', internalHeaders('a-wrong-token-of-enough-length'))).statusCode).toBe(401);
    expect((await history('after=nonsense&types=identity.user.registered')).statusCode).toBe(400);
    expect((await history('types=identity.user.registered')).statusCode).toBe(200);
  });

  it('answers no caller without the token however the path is spelled (the router decodes it)', async () => {
    for (const path of ['/%69nternal/events', '/intern%61l/events', '/internal/%65vents']) {
      const url = `${path}?types=identity.user.registered`;
      expect((await identity.app.inject({ method: 'GET', url })).statusCode, path).toBe(401);
      // the same route: with the token it answers
      const headers = internalHeaders(identity.deps.config.INTERNAL_TOKEN);
      expect((await identity.app.inject({ method: 'GET', url, headers })).statusCode, path).toBe(200);
    }
  });
});
