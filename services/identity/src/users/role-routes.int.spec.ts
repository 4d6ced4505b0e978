/**
 * PUT /api/admin/users/{id}/role: an admin grants and revokes the admin role; never the
 * last admin's; each change published with who made it (identity.user.role_granted).
 */
import { randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@sleepweave/bus';
import { LAST_ADMIN_MESSAGE, type EventEnvelope } from '@sleepweave/contracts';
import { createLogger } from '@sleepweave/service-kit';
import { explainAnalyze, rowsRead } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIp, register, sessionCookies, startIdentity, type Identity } from '../test/helpers.ts';
import { grantAdmin } from './commands.ts';
import { adminsCountQuery, countAdmins } from './queries.ts';

let identity: Identity;
let bus: Bus;
beforeAll(async () => {
  identity = await startIdentity();
  const { config } = identity.deps;
  bus = await connectBus({
    servers: config.NATS_URL,
    prefix: config.BUS_PREFIX,
    name: 'role-test',
    logger: createLogger('test', 'silent'),
  });
});
afterAll(async () => {
  await bus?.close();
  await identity?.cleanup();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function login(email: string, password: string): Promise<string> {
  const response = await identity.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password },
    remoteAddress: randomIp(),
  });
  expect(response.statusCode).toBe(200);
  return sessionCookies(response).access;
}

/** A registered user made an admin from the command line, with a fresh token that says so. */
async function newAdmin() {
  const user = await register(identity);
  await grantAdmin(identity.context, user.body.email);
  return { ...user, token: await login(user.body.email, user.body.password) };
}

const setRole = (token: string, userId: string, role: string) =>
  identity.app.inject({ method: 'PUT', url: `/api/admin/users/${userId}/role`, headers: bearer(token), payload: { role } });

/** She deletes her own account (her token stays valid until it expires). */
const deleteOwnAccount = (admin: Awaited<ReturnType<typeof newAdmin>>) =>
  identity.app.inject({ method: 'DELETE', url: '/api/account', payload: { password: admin.body.password }, headers: bearer(admin.token) });

/** Events that name `userId`, but the record of her own deletion. */
const eventsNaming = async (userId: string) =>
  (
    await identity.deps.sql<{ stream_id: string; type: string }[]>`
      select stream_id, type from events where data::text like ${`%${userId}%`} or metadata::text like ${`%${userId}%`}`
  ).filter((e) => e.stream_id !== `account_deletion:${userId}`);

const roleOf = async (userId: string) =>
  (await identity.deps.sql<{ role: string }[]>`select role from users where id = ${userId}`)[0]?.role;

describe('PUT /api/admin/users/:id/role', () => {
  it('lets an admin grant and revoke the role, published with who did it', async () => {
    const admin = await newAdmin();
    const member = await register(identity);
    const seen: EventEnvelope[] = [];
    const watch = await bus.watch({
      stream: 'IDENTITY',
      types: ['identity.user.role_granted'],
      since: new Date(),
      handler: (envelope) => {
        if ((envelope.data as { userId: string }).userId === member.user.id) seen.push(envelope);
      },
    });
    try {
      const granted = await setRole(admin.token, member.user.id, 'admin');
      expect(granted.statusCode).toBe(200);
      expect(granted.json()).toEqual({ message: 'The admin role has been granted.', role: 'admin' });
      expect(await roleOf(member.user.id)).toBe('admin');
      expect((await setRole(admin.token, member.user.id, 'admin')).json().message).toBe('This user is already an admin.');

      const revoked = await setRole(admin.token, member.user.id, 'participant');
      expect(revoked.json()).toEqual({ message: 'The admin role has been revoked.', role: 'participant' });
      expect(await roleOf(member.user.id)).toBe('participant');

      await expect
        .poll(() => seen.map((e) => e.data), { timeout: 5_000 })
        .toEqual([
          expect.objectContaining({ role: 'admin', grantedBy: admin.user.id, via: 'admin' }),
          expect.objectContaining({ role: 'participant', grantedBy: admin.user.id, via: 'admin' }),
        ]);
    } finally {
      await watch.stop();
    }
  });

  it('refuses a participant (403), a stranger (401), bad input (400) and an unknown user (404)', async () => {
    const member = await register(identity);
    const other = await register(identity);
    expect((await setRole(member.access, other.user.id, 'admin')).statusCode).toBe(403);
    expect(await roleOf(other.user.id)).toBe('participant');
    const anonymous = await identity.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${other.user.id}/role`,
      payload: { role: 'admin' },
    });
    expect(anonymous.statusCode).toBe(401);

    const admin = await newAdmin();
    const bad = await setRole(admin.token, other.user.id, 'superuser');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('role');
    expect((await setRole(admin.token, 'not-a-uuid', 'admin')).statusCode).toBe(400);
    const unknown = await setRole(admin.token, randomUUID(), 'admin');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No such user.');
  });

  it('never revokes the last admin (409 with the reason), even when two admins revoke each other at once', async () => {
    // this test's database starts with the admins of the tests above: revoke them all first
    const admins = await identity.deps.sql<{ id: string }[]>`select id from users where role = 'admin'`;
    const last = await newAdmin();
    for (const { id } of admins) expect((await setRole(last.token, id, 'participant')).statusCode).toBe(200);

    const alone = await setRole(last.token, last.user.id, 'participant');
    expect(alone.statusCode).toBe(409);
    expect(alone.json()).toEqual({ error: 'conflict', message: LAST_ADMIN_MESSAGE });
    expect(await roleOf(last.user.id)).toBe('admin');

    const second = await newAdmin();
    const [a, b] = await Promise.all([
      setRole(last.token, second.user.id, 'participant'),
      setRole(second.token, last.user.id, 'participant'),
    ]);
    // the one whose turn comes second is no admin any more: refused as such
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 403]);
    const left = await identity.deps.sql`select id from users where role = 'admin'`;
    expect(left).toHaveLength(1);

    // with another admin, she may step down herself
    const survivor = left[0]!.id as string;
    const token = survivor === last.user.id ? last.token : second.token;
    const third = await newAdmin();
    expect((await setRole(token, survivor, 'participant')).statusCode).toBe(200);
    expect(await roleOf(third.user.id)).toBe('admin');
  });

  it('refuses an admin whose role was revoked a moment ago (her token has not caught up): no giving it back to herself, no deletion', async () => {
    const a = await newAdmin();
    const b = await newAdmin();
    const member = await register(identity);
    expect((await setRole(a.token, b.user.id, 'participant')).statusCode).toBe(200);
    // b's token still says admin (the gateway learns of the change a moment later)
    expect((await setRole(b.token, b.user.id, 'admin')).statusCode).toBe(403);
    expect(await roleOf(b.user.id)).toBe('participant');
    const deletion = await identity.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${member.user.id}`,
      headers: bearer(b.token),
    });
    expect(deletion.statusCode).toBe(403);
    expect(await roleOf(member.user.id)).toBe('participant'); // still there
  });

  it('forgets a deleted admin as the one who changed a role', async () => {
    const admin = await newAdmin();
    const member = await register(identity);
    expect((await setRole(admin.token, member.user.id, 'admin')).statusCode).toBe(200);
    expect((await deleteOwnAccount(admin)).statusCode).toBe(200);
    expect(await eventsNaming(admin.user.id)).toEqual([]);
    expect(await roleOf(member.user.id)).toBe('admin'); // the change stays
    // by an admin no longer named, not from the command line (the audit trail says which)
    const [change] = await identity.deps.sql<{ data: { grantedBy: string | null; via: string } }[]>`
      select data from events where type = 'RoleGranted' and data->>'userId' = ${member.user.id}`;
    expect(change!.data).toMatchObject({ grantedBy: null, via: 'admin' });
  });

  it('refuses a change or a deletion by an admin deleted a moment before (her token outlived her): 401, her id on nothing', async () => {
    await newAdmin(); // not the last admin: she may delete her account
    const admin = await newAdmin();
    const member = await register(identity);
    expect((await deleteOwnAccount(admin)).statusCode).toBe(200);

    expect((await setRole(admin.token, member.user.id, 'admin')).statusCode).toBe(401);
    expect(await roleOf(member.user.id)).toBe('participant');
    const deletion = await identity.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${member.user.id}`,
      headers: bearer(admin.token),
    });
    expect(deletion.statusCode).toBe(401);
    expect(await roleOf(member.user.id)).toBe('participant'); // still there
    expect(await eventsNaming(admin.user.id)).toEqual([]);
  });

  it('counts the admins without reading every user (the last admin rule)', async () => {
    const { sql } = identity.deps;
    await sql`
      insert into users (id, email, password_hash, first_name, last_name, timezone, role, created_at, updated_at)
      select gen_random_uuid(), 'many' || i || '@example.com', 'x', 'Many', 'Users', 'Europe/London', 'participant', now(), now()
      from generate_series(1, 5000) i`;
    await sql`analyze users`;
    const read = rowsRead(await explainAnalyze(sql, adminsCountQuery(sql)));
    // the admins this file made, through the partial index (every user before migration 007)
    expect(read.filter(([table]) => table === 'users').reduce((sum, [, rows]) => sum + rows, 0)).toBeLessThan(100);
    expect(await countAdmins(sql)).toBe((await sql`select 1 from users where role = 'admin'`).length);
  });
});
