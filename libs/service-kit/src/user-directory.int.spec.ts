import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { testEnvelope } from '@sleepweave/bus/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseConfig, loadConfig } from './config.ts';
import type { ServiceDefinition, ServiceConfig } from './runtime.ts';
import { registeredEnvelope, startTestService, testEnv, type TestService } from './testing.ts';
import { connectDatabase, dropDatabase, ensureDatabase } from './database.ts';
import { DIRECTORY_LOCKS, findDirectoryUser, migrateUserDirectory, readAfterWrite, userDirectoryConsumer } from './user-directory.ts';
import { HttpError, notFound } from './errors.ts';
import type { Tx } from '@sleepweave/event-store';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

const Config = BaseConfig.extend({ PORT: z.coerce.number().default(0) });
const deletedUsers: string[] = [];
/** What onUserChanged saw: her id and her row as written in that transaction. */
const changes: { userId: string; timezone: string; role: string }[] = [];

const directoryService: ServiceDefinition<ServiceConfig, null> = {
  name: 'directory-test',
  migrationsDir: fileURLToPath(new URL('../test/empty-migrations', import.meta.url)),
  streams: ['IDENTITY'],
  context: async () => null,
  routes: async () => {},
  projections: [],
  userDirectory: true,
  async onUserDeleted(_ctx, _tx, userId) {
    deletedUsers.push(userId);
  },
  async onUserChanged(_ctx, tx, userId) {
    const [row] = await tx<{ timezone: string; role: string }[]>`select timezone, role from user_directory where user_id = ${userId}`;
    changes.push({ userId, timezone: row!.timezone, role: row!.role });
  },
};

let service: TestService<ServiceConfig, null>;
beforeAll(async () => {
  service = await startTestService(directoryService, loadConfig(Config, testEnv()));
});
afterAll(async () => {
  await service?.cleanup();
});

describe('user directory', () => {
  it('follows registration, profile changes, roles and deletion', async () => {
    const userId = randomUUID();
    const { bus, sql } = service.deps;
    const profile = {
      firstName: 'Ada',
      lastName: 'Moss',
      dateOfBirth: '1969-05-01',
      timezone: 'Europe/London' as const,
      hormonalStage: 'Menopause' as const,
      profileImageUrl: null,
    };
    await bus.publish(
      testEnvelope('identity.user.registered', {
        userId,
        email: 'ada@example.com',
        ...profile,
        role: 'participant',
        registeredAt: new Date().toISOString(),
      }),
    );
    await expect.poll(async () => (await findDirectoryUser(sql, userId))?.firstName, { timeout: 5_000 }).toBe('Ada');

    await bus.publish(
      testEnvelope('identity.user.profile_updated', {
        userId,
        ...profile,
        timezone: 'America/Denver',
        hormonalStage: 'Post menopause',
        updatedAt: new Date().toISOString(),
      }),
    );
    await bus.publish(testEnvelope('identity.user.role_granted', { userId, role: 'admin', grantedAt: new Date().toISOString() }));
    await expect.poll(async () => (await findDirectoryUser(sql, userId))?.role, { timeout: 5_000 }).toBe('admin');
    expect(await findDirectoryUser(sql, userId)).toMatchObject({
      timezone: 'America/Denver',
      hormonalStage: 'Post menopause',
      dateOfBirth: '1969-05-01',
    });

    // onUserChanged ran after each write, in its transaction, and saw the row as written
    expect(changes.filter((c) => c.userId === userId)).toEqual([
      { userId, timezone: 'Europe/London', role: 'participant' },
      { userId, timezone: 'America/Denver', role: 'participant' },
      { userId, timezone: 'America/Denver', role: 'admin' },
    ]);

    await bus.publish(testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() }));
    await expect.poll(async () => await findDirectoryUser(sql, userId), { timeout: 5_000 }).toBeUndefined();
    expect(deletedUsers).toContain(userId);
  });

  it('a late registered event does not bring a deleted user back; a late older profile changes nothing', async () => {
    const { bus, sql } = service.deps;
    const profile = {
      firstName: 'Ines',
      lastName: 'Vale',
      dateOfBirth: null,
      timezone: 'Europe/Paris' as const,
      hormonalStage: null,
      profileImageUrl: null,
    };
    const registered = testEnvelope('identity.user.registered', {
      userId: randomUUID(),
      email: 'ines@example.com',
      ...profile,
      role: 'participant',
      registeredAt: '2026-01-01T00:00:00.000Z',
    });
    const userId = registered.data.userId;
    await bus.publish(registered);
    await expect.poll(async () => (await findDirectoryUser(sql, userId))?.firstName, { timeout: 5_000 }).toBe('Ines');

    await bus.publish(
      testEnvelope('identity.user.profile_updated', { userId, ...profile, firstName: 'Ina', updatedAt: '2026-03-01T00:00:00.000Z' }),
    );
    await bus.publish(
      testEnvelope('identity.user.profile_updated', { userId, ...profile, firstName: 'Old', updatedAt: '2026-02-01T00:00:00.000Z' }),
    );
    const older = testEnvelope('identity.user.role_granted', { userId, role: 'admin', grantedAt: '2026-03-02T00:00:00.000Z' });
    await bus.publish(older);
    await expect.poll(async () => (await findDirectoryUser(sql, userId))?.role, { timeout: 5_000 }).toBe('admin');
    expect((await findDirectoryUser(sql, userId))?.firstName).toBe('Ina');
    // registered, 'Ina', the role: the older update changed nothing, so onUserChanged did not run for it
    expect(changes.filter((c) => c.userId === userId)).toHaveLength(3);

    await bus.publish(testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() }));
    await expect.poll(async () => await findDirectoryUser(sql, userId), { timeout: 5_000 }).toBeUndefined();
    // the same registration again, as a redelivery with a new id would look
    await bus.publish({ ...registered, id: randomUUID() });
    const marker = testEnvelope('identity.user.deleted', { userId: randomUUID(), deletedAt: new Date().toISOString() });
    await bus.publish(marker);
    await expect.poll(async () => (await sql`select 1 from inbox where event_id = ${marker.id}`).length, { timeout: 5_000 }).toBe(1);
    expect(await findDirectoryUser(sql, userId)).toBeUndefined();
    expect(changes.filter((c) => c.userId === userId)).toHaveLength(3);
  });

  it('her registration and her deletion applied side by side (two instances share the consumer) leave nothing of her', async () => {
    const { sql } = service.deps;
    const consumer = userDirectoryConsumer('race-test', async () => {});
    const userId = randomUUID();
    const registered = registeredEnvelope({ userId, firstName: 'Noor', lastName: 'Hale' });
    const deleted = testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() });
    let deletionApplied!: () => void;
    const applied = new Promise<void>((resolve) => (deletionApplied = resolve));
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    // one instance applies her deletion and has not committed yet ...
    const deleting = sql.begin(async (tx) => {
      await consumer.handle(tx as unknown as Tx, deleted);
      deletionApplied();
      await held;
    });
    await applied;
    // ... while the other applies her registration
    const registering = sql.begin((tx) => consumer.handle(tx as unknown as Tx, registered));
    await sleep(300);
    commit();
    await Promise.all([deleting, registering]);
    expect(await findDirectoryUser(sql, userId)).toBeUndefined();
  });

  it('takes at most DIRECTORY_LOCKS locks in one transaction however many users it applies (a rebuild replays them all in one)', async () => {
    const { sql } = service.deps;
    const consumer = userDirectoryConsumer('locks-test', async () => {});
    const held = await sql.begin(async (tx) => {
      for (let i = 0; i < 2 * DIRECTORY_LOCKS; i++) {
        await consumer.handle(
          tx as unknown as Tx,
          testEnvelope('identity.user.deleted', { userId: randomUUID(), deletedAt: new Date().toISOString() }),
        );
      }
      const [row] = await tx<
        { n: number }[]
      >`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`;
      return row!.n;
    });
    expect(held).toBeLessThanOrEqual(DIRECTORY_LOCKS);
    expect(held).toBeGreaterThan(DIRECTORY_LOCKS / 2);
  });

  it('a profile change or a role that comes before her registration waits for it, and an older role changes nothing', async () => {
    const { sql } = service.deps;
    const consumer = userDirectoryConsumer('order-test', async () => {});
    const userId = randomUUID();
    const profile = {
      firstName: 'Lea',
      lastName: 'Cole',
      dateOfBirth: null,
      timezone: 'Europe/Paris' as const,
      hormonalStage: null,
      profileImageUrl: null,
    };
    const apply = (envelope: Parameters<typeof consumer.handle>[1]) => sql.begin((tx) => consumer.handle(tx as unknown as Tx, envelope));
    const update = testEnvelope('identity.user.profile_updated', {
      userId,
      ...profile,
      firstName: 'Leah',
      updatedAt: '2026-03-01T00:00:00.000Z',
    });
    await expect(apply(update)).rejects.toThrow(/not known here yet/);
    await apply(
      testEnvelope('identity.user.registered', {
        userId,
        email: 'lea@example.com',
        ...profile,
        role: 'participant',
        registeredAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    await apply(update);
    await apply(testEnvelope('identity.user.role_granted', { userId, role: 'admin', grantedAt: '2026-03-05T00:00:00.000Z' }));
    // the revoke made before the grant, applied after it
    await apply(testEnvelope('identity.user.role_granted', { userId, role: 'participant', grantedAt: '2026-03-04T00:00:00.000Z' }));
    expect(await findDirectoryUser(sql, userId)).toMatchObject({ firstName: 'Leah', role: 'admin' });
    // and for someone deleted, nothing waits
    const gone = randomUUID();
    await apply(testEnvelope('identity.user.deleted', { userId: gone, deletedAt: new Date().toISOString() }));
    await apply(testEnvelope('identity.user.role_granted', { userId: gone, role: 'admin', grantedAt: new Date().toISOString() }));
    expect(await findDirectoryUser(sql, gone)).toBeUndefined();
  });
});

describe('readAfterWrite', () => {
  it('answers what her write left; when it is gone, 401 if her account was deleted meanwhile, else what `gone` says, else an error', async () => {
    const { sql } = service.deps;
    const [deleted, present] = [randomUUID(), randomUUID()];
    await sql`insert into deleted_users (user_id, deleted_at) values (${deleted}, now())`;
    expect(await readAfterWrite(sql, present, { id: 1 })).toEqual({ id: 1 });
    await expect(readAfterWrite(sql, deleted, undefined, () => notFound('Thread not found'))).rejects.toMatchObject({
      statusCode: 401,
      message: 'This account has been deleted.',
    });
    await expect(readAfterWrite(sql, present, undefined, () => notFound('Thread not found'))).rejects.toMatchObject({
      statusCode: 404,
      message: 'Thread not found',
    });
    await expect(readAfterWrite(sql, present, undefined)).rejects.not.toBeInstanceOf(HttpError);
  });
});

describe('migrateUserDirectory', () => {
  it('can run from several instances at once on a fresh database', async () => {
    const config = service.deps.config;
    // the race (duplicate pg_type row) shows only sometimes: try several fresh databases
    for (let round = 0; round < 5; round++) {
      const name = `sw_test_dir_${randomUUID().slice(0, 8)}`;
      await ensureDatabase(config.DATABASE_URL, name);
      const connections = Array.from({ length: 8 }, () => connectDatabase(config.DATABASE_URL, name, { max: 1 }));
      try {
        await Promise.all(connections.map((sql) => sql`select 1`));
        await Promise.all(connections.map((sql) => migrateUserDirectory(sql)));
      } finally {
        await Promise.all(connections.map((sql) => sql.end()));
        await dropDatabase(config.DATABASE_URL, name);
      }
    }
  });
});
