import { holdStreamLock, rebuildAndSnapshot, untilBlocked } from '@sleepweave/service-kit/testing';
import { userStreamId } from '../users/user.ts';
import { internalHeaders } from '@sleepweave/service-kit';
import { randomUUID } from 'node:crypto';
import { LAST_ADMIN_DELETION_MESSAGE, type EventEnvelope } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeRole, grantAdmin } from '../users/commands.ts';
import { resetLinkIn, startMailCatcher, type MailCatcher } from '../test/mail-catcher.ts';
import { randomIp, register, sessionCookies, startIdentity, type Identity } from '../test/helpers.ts';

/** Headers of a call from another service (the gateway) to an internal route. */
const internal = () => internalHeaders(identity.deps.config.INTERNAL_TOKEN);

let mail: MailCatcher;
let identity: Identity;
beforeAll(async () => {
  mail = await startMailCatcher();
  identity = await startIdentity({ SMTP_URL: mail.url, FORGOT_PASSWORD_MIN_RESPONSE_MS: '0' });
});
afterAll(async () => {
  await identity?.cleanup();
  await mail?.close();
});

const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
const deleteOwn = (access: string, password: string) =>
  identity.app.inject({ method: 'DELETE', url: '/api/account', headers: bearer(access), payload: { password } });
const login = (email: string, password: string) =>
  identity.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: randomIp() });

/** Watches identity's bus events about one user. */
async function watchUser(userId: string) {
  const seen: EventEnvelope[] = [];
  const watch = await identity.deps.bus.watch({
    stream: 'IDENTITY',
    types: ['identity.user.deleted', 'identity.session.revoked'],
    since: new Date(Date.now() - 60_000),
    handler: (e) => {
      // (her earlier logout is on the bus too; only what the deletion publishes counts here)
      const data = e.data as { userId: string; reason?: string };
      if (data.userId === userId && (e.type === 'identity.user.deleted' || data.reason === 'account_deleted')) seen.push(e);
    },
  });
  return { seen, stop: () => watch.stop() };
}

/** A user with everything identity can hold of her: two sessions (one logged out), a reset link, a profile change, a failed sign-in. */
async function fullUser() {
  const registered = await register(identity, { firstName: 'Ingrid', lastName: `Halvorsen-${randomUUID().slice(0, 8)}` });
  const { body, access } = registered;
  const second = sessionCookies(await login(body.email, body.password));
  await identity.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(second.access), payload: {} });
  await login(body.email, 'a wrong password');
  await identity.app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: bearer(access),
    payload: { firstName: 'Ingrid', lastName: body.lastName, timezone: 'Europe/Paris', hormonalStage: 'Menopause' },
  });
  expect(
    (await identity.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: body.email }, remoteAddress: randomIp() }))
      .statusCode,
  ).toBe(200);
  const token = new URL(resetLinkIn(await mail.waitForMail(body.email))).searchParams.get('token')!;
  return { ...registered, token };
}

/** Everything identity's database still holds that mentions her. */
async function traces(userId: string, email: string, lastName: string) {
  const { sql } = identity.deps;
  const events = await sql<{ stream_id: string; type: string; data: unknown }[]>`
    select stream_id, type, data from events
    where stream_id like ${`%${userId}%`} or data::text like ${`%${userId}%`} or metadata::text like ${`%${userId}%`}
       or data::text ilike ${`%${email}%`} or data::text like ${`%${lastName}%`}
    order by global_position`;
  const rows = {
    users: (await sql`select 1 from users where id = ${userId} or email = ${email}`).length,
    sessions: (await sql`select 1 from sessions where user_id = ${userId}`).length,
    password_reset_tokens: (await sql`select 1 from password_reset_tokens where user_id = ${userId}`).length,
    password_reset_requests: (await sql`select 1 from password_reset_requests where email = ${email}`).length,
    login_failures: (await sql`select 1 from login_failures where email = ${email}`).length,
  };
  return { events, rows };
}

describe('DELETE /api/account', () => {
  it('needs her password: a wrong one deletes nothing', async () => {
    const { body, access } = await register(identity);
    const response = await deleteOwn(access, 'not my password');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: 'wrong_password',
      message: 'That password is not correct. Your account has not been deleted.',
    });
    expect((await login(body.email, body.password)).statusCode).toBe(200);
  });

  it('deletes her for good: nothing personal remains, sessions revoked, identity.user.deleted published', async () => {
    const { body, user, access, refresh, token } = await fullUser();
    const email = body.email.toLowerCase();
    const before = await traces(user.id, email, body.lastName);
    expect(before.rows).toEqual({ users: 1, sessions: 2, password_reset_tokens: 1, password_reset_requests: 1, login_failures: 1 });

    const watch = await watchUser(user.id);
    try {
      const response = await deleteOwn(access, body.password);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Your account and all your data have been deleted.' });
      expect(sessionCookies(response)).toEqual({ access: '', refresh: '' });

      // Nothing of hers in any read model; only the deletion record (ids and times) in the events.
      const after = await traces(user.id, email, body.lastName);
      expect(after.rows).toEqual({ users: 0, sessions: 0, password_reset_tokens: 0, password_reset_requests: 0, login_failures: 0 });
      expect(after.events.map((e) => [e.stream_id, e.type])).toEqual([
        [`account_deletion:${user.id}`, 'SessionRevoked'],
        [`account_deletion:${user.id}`, 'UserDeleted'],
      ]);
      const stored = JSON.stringify(after.events);
      for (const personal of [email, body.firstName, body.lastName, body.dateOfBirth, 'argon2', 'Europe/Paris']) {
        expect(stored).not.toContain(personal);
      }

      // The relay published the revocation of the one session still active, then the deletion.
      await expect
        .poll(() => watch.seen.map((e) => e.type), { timeout: 5_000 })
        .toEqual(['identity.session.revoked', 'identity.user.deleted']);
      expect(watch.seen[0]!.data).toMatchObject({ userId: user.id, reason: 'account_deleted' });
      expect(watch.seen[1]!.data).toEqual({ userId: user.id, deletedAt: expect.any(String), via: 'self', deletedBy: null });
    } finally {
      await watch.stop();
    }

    // She cannot come back in by any door.
    expect((await login(email, body.password)).json()).toEqual({ error: 'unauthorized', message: 'Invalid email or password' });
    expect(
      (
        await identity.app.inject({
          method: 'POST',
          url: '/internal/session/refresh',
          payload: { refreshToken: refresh },
          headers: internal(),
        })
      ).statusCode,
    ).toBe(401);
    expect((await identity.app.inject({ method: 'GET', url: '/api/user', headers: bearer(access) })).statusCode).toBe(401);
    expect(
      (await identity.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'back from the dead' } }))
        .statusCode,
    ).toBe(400);
    // Her e-mail address is free again.
    await register(identity, { email });
  });

  it('deletes nothing when her password changed while the one given was being checked', async () => {
    const { body, user, access } = await register(identity);
    const held = await holdStreamLock(identity.deps.sql, userStreamId(user.id));
    const changing = identity.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: bearer(access),
      payload: { currentPassword: body.password, newPassword: 'a brand new password', confirmPassword: 'a brand new password' },
    });
    await untilBlocked(identity.deps.sql, { waiting: 1 });
    // checked against her password as it still is, her stream's turn coming after the change's
    const deleting = deleteOwn(access, body.password);
    await untilBlocked(identity.deps.sql, { waiting: 2 });
    await held.release();
    expect((await changing).statusCode).toBe(200);
    const refused = await deleting;
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'wrong_password',
      message: 'That password is not correct. Your account has not been deleted.',
    });
    expect(await identity.deps.sql`select 1 from users where id = ${user.id}`).toHaveLength(1);
    expect((await login(body.email, 'a brand new password')).statusCode).toBe(200);
  });

  it('answers 401 without a session and 400 without a password', async () => {
    expect((await identity.app.inject({ method: 'DELETE', url: '/api/account', payload: { password: 'x' } })).statusCode).toBe(401);
    const { access } = await register(identity);
    const response = await identity.app.inject({ method: 'DELETE', url: '/api/account', headers: bearer(access), payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('password:');
  });
});

describe('DELETE /api/admin/users/:id', () => {
  it('deletes her streams too when her id is given in capitals (streams are named by the id as text)', async () => {
    const admin = await register(identity);
    await grantAdmin(identity.context, admin.body.email);
    const adminAccess = sessionCookies(await login(admin.body.email, admin.body.password)).access;
    const { user } = await register(identity);
    const response = await identity.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${user.id.toUpperCase()}`,
      headers: bearer(adminAccess),
    });
    expect(response.statusCode).toBe(200);
    const left = await identity.deps.sql`
      select stream_id from events where lower(stream_id) like ${`%${user.id}%`} and stream_id <> ${`account_deletion:${user.id}`}`;
    expect(left).toEqual([]);
  });

  it('lets an admin delete a user (403 for a participant, 404 for an unknown id)', async () => {
    const admin = await register(identity);
    await grantAdmin(identity.context, admin.body.email);
    const adminAccess = sessionCookies(await login(admin.body.email, admin.body.password)).access;
    const { body, user, access } = await register(identity, { lastName: `Okafor-${randomUUID().slice(0, 8)}` });

    const byParticipant = await identity.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${admin.user.id}`,
      headers: bearer(access),
    });
    expect(byParticipant.statusCode).toBe(403);

    const watch = await watchUser(user.id);
    try {
      const response = await identity.app.inject({ method: 'DELETE', url: `/api/admin/users/${user.id}`, headers: bearer(adminAccess) });
      expect(response.statusCode).toBe(200);
      await expect
        .poll(() => watch.seen.map((e) => e.type), { timeout: 5_000 })
        .toEqual(['identity.session.revoked', 'identity.user.deleted']);
      // by whom, for the audit trail (research-export)
      expect(watch.seen[1]!.data).toEqual({ userId: user.id, deletedAt: expect.any(String), via: 'admin', deletedBy: admin.user.id });
    } finally {
      await watch.stop();
    }
    const after = await traces(user.id, body.email.toLowerCase(), body.lastName);
    expect(after.rows.users + after.rows.sessions).toBe(0);
    expect(after.events.map((e) => e.stream_id)).toEqual([`account_deletion:${user.id}`, `account_deletion:${user.id}`]);

    const again = await identity.app.inject({ method: 'DELETE', url: `/api/admin/users/${user.id}`, headers: bearer(adminAccess) });
    expect(again.statusCode).toBe(404);
    const bad = await identity.app.inject({ method: 'DELETE', url: '/api/admin/users/not-a-uuid', headers: bearer(adminAccess) });
    expect(bad.statusCode).toBe(400);

    // the admin deletes her own account later: her id as the actor of that deletion goes too
    const acting = await identity.deps.sql`select count(*)::int as n from events where metadata->>'userId' = ${admin.user.id}`;
    expect(acting[0]!.n).toBeGreaterThan(0);
    const deleteOwn = () =>
      identity.app.inject({
        method: 'DELETE',
        url: '/api/account',
        payload: { password: admin.body.password },
        headers: bearer(adminAccess),
      });
    // not while she is the only admin: there must always be one
    const others = await identity.deps.sql<{ id: string }[]>`select id from users where role = 'admin' and id <> ${admin.user.id}`;
    for (const other of others) {
      await changeRole(
        identity.context,
        { userId: other.id, role: 'participant', by: admin.user.id, now: new Date() },
        { correlationId: randomUUID() },
      );
    }
    const refused = await deleteOwn();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'conflict', message: LAST_ADMIN_DELETION_MESSAGE });
    expect((await identity.deps.sql`select count(*)::int as n from users where id = ${admin.user.id}`)[0]!.n).toBe(1);
    const successor = await register(identity);
    await grantAdmin(identity.context, successor.body.email);
    const own = await deleteOwn();
    expect(own.statusCode).toBe(200);
    const left = await identity.deps.sql`select count(*)::int as n from events where metadata->>'userId' = ${admin.user.id}`;
    expect(left[0]!.n).toBe(0);
  });
});

describe('rebuilding the read models', () => {
  it('gives the same tables from the events, with nothing of a deleted user', async () => {
    const kept = await fullUser();
    const gone = await fullUser();
    expect((await deleteOwn(gone.access, gone.body.password)).statusCode).toBe(200);
    const { before, after } = await rebuildAndSnapshot(identity);
    expect(Object.keys(after).sort()).toEqual(['password_reset_tokens', 'session_retired_tokens', 'sessions', 'users']);
    expect(after).toEqual(before);
    expect(after.users!.some((u) => (u as { id: string }).id === kept.user.id)).toBe(true);
    expect(JSON.stringify(after)).not.toContain(gone.user.id);
  });
});
