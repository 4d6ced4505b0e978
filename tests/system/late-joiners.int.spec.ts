/**
 * ARCHITECTURE.md, "Late joiners": a consumer with no checkpoint for its producer (a new
 * service, a wiped database, a rebuild) catches up from the producer's own event store,
 * then follows the bus. Proved for every consumer in the system: the bus is purged (as if
 * every event had aged out), each service's consumer state is wiped and the service is
 * restarted; every read model comes back as it was, and new events still flow.
 */
import { purgeStreamsOfPrefix } from '@sleepweave/bus/testing';
import { connectDatabase, consumersOf, databaseName, findDirectoryUser } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES, startSystem, type System } from './system.ts';

let system: System;
beforeAll(async () => {
  system = await startSystem();
  await system.settled();
});
afterAll(async () => {
  await system?.cleanup();
});

const PASSWORD = 'correct horse battery';
let ip = 0;

async function register(firstName: string) {
  const { identity } = system.services;
  const response = await identity.app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress: `10.9.0.${++ip}`,
    payload: {
      email: `${firstName.toLowerCase()}.${Date.now()}@example.com`,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName,
      lastName: 'Lind',
      dateOfBirth: '1971-03-02',
      timezone: 'Europe/Paris',
      hormonalStage: 'Menopause',
    },
  });
  expect(response.statusCode).toBe(201);
  const access = response.cookies.find((c) => c.name === 'sw_access')!.value;
  return { id: response.json().user.id as string, headers: { authorization: `Bearer ${access}` } };
}

/** She deletes her account. */
async function deleteAccount(user: { headers: Record<string, string> }) {
  const deleted = await system.services.identity.app.inject({
    method: 'DELETE',
    url: '/api/account',
    headers: user.headers,
    payload: { password: PASSWORD },
  });
  expect(deleted.statusCode).toBe(200);
}

/** Everyone who keeps a user directory knows her (or has forgotten her). */
async function known(
  userId: string,
  expected: boolean,
  services: readonly ('study' | 'journal' | 'community')[] = ['study', 'journal', 'community'],
) {
  for (const name of services) {
    await expect
      .poll(async () => (await findDirectoryUser(system.services[name].deps.sql, userId)) !== undefined, { timeout: 10_000 })
      .toBe(expected);
  }
}

describe('every consumer, after the bus lost everything and its state was wiped', () => {
  it('comes back with the same read model from the producers’ history, then follows the bus', async () => {
    const { identity, study, journal, community } = system.services;
    const ada = await register('Ada');
    const bea = await register('Bea');
    const cleo = await register('Cleo');
    await known(ada.id, true);
    await known(bea.id, true);
    await known(cleo.id, true);

    for (const user of [ada, bea]) {
      expect((await study.app.inject({ method: 'POST', url: '/api/sleep/consent', headers: user.headers, payload: {} })).statusCode).toBe(
        201,
      );
    }
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    const night = await study.app.inject({
      method: 'POST',
      url: '/api/sleep/log',
      headers: ada.headers,
      payload: { date: today, sleepScore: 81 },
    });
    expect(night.statusCode).toBe(201);
    const entry = await journal.app.inject({
      method: 'POST',
      url: '/api/journal/entry',
      headers: bea.headers,
      payload: { gratitude: 'rain' },
    });
    expect(entry.statusCode).toBe(201);
    const thread = await community.app.inject({
      method: 'POST',
      url: '/api/community/thread',
      headers: ada.headers,
      payload: { name: 'Linen' },
    });
    expect(thread.statusCode).toBe(201);
    const message = await community.app.inject({
      method: 'POST',
      url: '/api/community/message',
      headers: bea.headers,
      payload: { threadId: thread.json().id, body: 'It helps' },
    });
    expect(message.statusCode).toBe(201);
    await deleteAccount(cleo);
    await known(cleo.id, false);
    // identity's consumer of study: both start dates; community's: both participations
    await expect
      .poll(async () => (await identity.deps.sql`select count(*)::int as n from users where study_start_date is not null`)[0]!.n, {
        timeout: 10_000,
      })
      .toBe(2);
    await expect
      .poll(async () => (await community.deps.sql`select count(*)::int as n from study_participants`)[0]!.n, { timeout: 10_000 })
      .toBe(2);

    const before = Object.fromEntries(await Promise.all(SERVICE_NAMES.map(async (name) => [name, await system.snapshot(name)] as const)));

    // The bus forgets everything.
    const { NATS_URL, BUS_PREFIX } = identity.deps.config;
    const purged = await purgeStreamsOfPrefix(NATS_URL, BUS_PREFIX);
    expect(purged).toBeGreaterThan(10);

    // Each service loses what its consumers built (tables, inbox, checkpoint), and starts again.
    for (const name of SERVICE_NAMES) {
      const service = system.services[name];
      const consumers = consumersOf(service.definition, service.context);
      await system.stop(name);
      const sql = connectDatabase(service.deps.config.DATABASE_URL, databaseName(service.deps.config, name), { max: 1 });
      try {
        await sql.begin(async (tx) => {
          for (const consumer of consumers) {
            if (consumer.tables.length > 0) await tx`truncate table ${tx(consumer.tables as string[])}`;
            await tx`delete from inbox where consumer = ${consumer.name}`;
            await tx`delete from consumer_catchups where consumer = ${consumer.name}`;
          }
        });
      } finally {
        await sql.end();
      }
      await system.start(name);
    }
    await system.settled();

    for (const name of SERVICE_NAMES) expect(await system.snapshot(name), name).toEqual(before[name]);

    // And the bus still works: a new member reaches every directory.
    const dora = await register('Dora');
    await known(dora.id, true);
  });
});

describe('a service down for longer than the bus keeps what was published meanwhile', () => {
  it('applies it from the producers’ history when it is back, before it follows the bus', async () => {
    const { identity, study } = system.services;
    const gil = await register('Gil');
    await known(gil.id, true);
    await system.stop('community');
    const hana = await register('Hana');
    const consent = await study.app.inject({ method: 'POST', url: '/api/sleep/consent', headers: hana.headers, payload: {} });
    expect(consent.statusCode).toBe(201);
    await deleteAccount(gil);
    // published: the services that are up have them
    await known(hana.id, true, ['study', 'journal']);
    await known(gil.id, false, ['study', 'journal']);
    await expect
      .poll(async () => (await identity.deps.sql`select study_start_date from users where id = ${hana.id}`)[0]?.study_start_date ?? null, {
        timeout: 10_000,
      })
      .not.toBeNull();

    // Community stays down for more than a week: the bus forgets it all.
    const { NATS_URL, BUS_PREFIX } = identity.deps.config;
    expect(await purgeStreamsOfPrefix(NATS_URL, BUS_PREFIX)).toBeGreaterThan(0);
    await system.start('community');
    await system.settled();

    const { community } = system.services;
    expect(await findDirectoryUser(community.deps.sql, hana.id)).toBeDefined();
    expect(await findDirectoryUser(community.deps.sql, gil.id)).toBeUndefined();
    const [participant] = await community.deps.sql`select count(*)::int as n from study_participants where user_id = ${hana.id}`;
    expect(participant!.n).toBe(1);
  });
});
