/**
 * Two instances of every service and of the gateway against one PostgreSQL and one NATS,
 * as replicas behind a load balancer (issue 14): one relay per service publishes, every
 * event is applied once by each consumer whichever instance takes it, a message posted
 * through one gateway reaches sockets on both, a logout through one is enforced by both;
 * and when the instance whose relay publishes is killed, the other takes over.
 */
import { relayLock } from '@sleepweave/event-store';
import { startNatsServer, startPostgresServer, type NatsServer, type PostgresServer } from '@sleepweave/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Member, registerSurely, ThreadListener } from './client.ts';
import { SERVICES, startProcessSystem, type ProcessSystem } from './processes.ts';

let pg: PostgresServer;
let nats: NatsServer;
let system: ProcessSystem;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  pg = await startPostgresServer({ maxConnections: 300 });
  nats = await startNatsServer();
  system = await startProcessSystem({
    databaseUrl: pg.url,
    natsUrl: nats.url,
    instances: 2,
    env: {
      REGISTER_RATE_LIMIT_PER_IP: '100000',
      LOGIN_RATE_LIMIT_PER_IP: '100000',
      MESSAGE_POST_LIMIT_PER_MINUTE: '100000',
      JOURNAL_ENTRY_LIMIT_PER_HOUR: '100000',
    },
  });
  await system.healthy(180_000);
}, 240_000);

afterAll(async () => {
  await system?.stop();
  await nats?.destroy();
  await pg?.destroy();
}, 60_000);

/** Each instance's relay role for a service, from its /health. */
async function relayRoles(service: string): Promise<string[]> {
  return Promise.all(
    [service, `${service}-b`].map(async (process) => {
      const response = await fetch(system.healthUrl(process));
      return ((await response.json()) as { relay?: string }).relay ?? 'none';
    }),
  );
}

async function count(service: string, query: string): Promise<number> {
  const [row] = await system.sql(service).unsafe<{ n: number }[]>(query);
  return row!.n;
}

/** A session's access token alone, refused (401) by a gateway within the time. */
async function refusedWithin(token: Member, gateway: string, ms: number): Promise<boolean> {
  const probe = new Member(gateway, token.origin);
  probe.cookies.set('sw_access', token.cookies.get('sw_access')!);
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(25)) {
    if ((await probe.request('GET', '/api/journal/entries', undefined, ['sw_access'])).status === 401) return true;
  }
  return false;
}

describe('two instances of everything', () => {
  it('publish once, apply once, and fan out to sockets on both gateways', async () => {
    const [a, b] = system.gateways as [string, string];
    const origin = system.appUrl;

    // One relay per service publishes (research-export publishes nothing: it has none).
    for (const service of SERVICES.filter((name) => name !== 'research-export')) {
      expect(await relayRoles(service), service).not.toEqual(['none', 'none']);
      await expect.poll(async () => (await relayRoles(service)).sort(), { timeout: 10_000 }).toEqual(['active', 'standby']);
      const lock = relayLock('default');
      const holders = await count(
        service,
        `select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and database = (
           select oid from pg_database where datname = current_database()
         ) and classid = ${lock.classId} and objid = ${lock.objId} and objsubid = 2`,
      );
      expect(holders, `${service}: relay locks held`).toBe(1);
    }

    // Members signed up through either gateway, half of them consenting to the study.
    const members: Member[] = [];
    for (let i = 0; i < 12; i++) members.push(await registerSurely(i % 2 ? b : a, origin, `Rep${i}`));
    for (const [i, member] of members.entries()) {
      if (i % 2) continue;
      member.gateway = i % 4 ? b : a;
      expect((await member.request('POST', '/api/sleep/consent', {})).status).toBe(201);
    }

    // Sockets on both gateways follow one thread; messages are posted through each.
    const [poster, onA, onB] = members as [Member, Member, Member];
    const thread = await poster.request('POST', '/api/community/thread', { name: 'Replicas' });
    expect(thread.status).toBe(201);
    const threadId = (thread.body as { id: string }).id;
    onA.gateway = a;
    onB.gateway = b;
    const listeners = [new ThreadListener(onA, threadId), new ThreadListener(onB, threadId)];
    for (const listener of listeners) listener.start();
    try {
      await expect.poll(() => listeners.every((l) => l.joined), { timeout: 10_000 }).toBe(true);
      for (const gateway of [a, b, a, b]) {
        poster.gateway = gateway;
        const posted = await poster.request('POST', '/api/community/message', { threadId, body: `through ${gateway}` });
        expect(posted.status).toBe(201);
        const id = (posted.body as { id: string }).id;
        await expect.poll(() => listeners.every((l) => l.received.has(id)), { timeout: 5_000, interval: 20 }).toBe(true);
      }
    } finally {
      for (const listener of listeners) listener.stop();
    }

    // A logout through one gateway is enforced by both.
    const leaver = members[1]!;
    leaver.gateway = a;
    const session = await leaver.login();
    const token = new Member(a, origin);
    token.cookies.set('sw_access', session.cookies.get('sw_access')!);
    expect((await session.request('POST', '/api/logout', {})).status).toBe(200);
    expect(await refusedWithin(token, a, 2_000)).toBe(true);
    expect(await refusedWithin(token, b, 2_000)).toBe(true);

    // Every event was applied once by every consumer, whichever instance took it.
    const registered = await count('identity', 'select count(*)::int as n from users');
    const consents = await count('study', 'select count(*)::int as n from consents');
    expect(registered).toBe(12);
    expect(consents).toBe(6);
    await expect
      .poll(
        async () => ({
          directories: await Promise.all(
            ['study', 'journal', 'community'].map((s) => count(s, 'select count(*)::int as n from user_directory')),
          ),
          registrationsApplied: await Promise.all(
            ['study', 'journal', 'community'].map((s) =>
              count(s, `select count(*)::int as n from inbox where consumer = '${s}-identity-users'`),
            ),
          ),
          identityStartDates: await count('identity', 'select count(*)::int as n from users where study_start_date is not null'),
          identityConsentsApplied: await count(
            'identity',
            `select count(*)::int as n from inbox where consumer = 'identity-study-startdate'`,
          ),
          communityParticipants: await count('community', 'select count(*)::int as n from study_participants'),
          communityConsentsApplied: await count(
            'community',
            `select count(*)::int as n from inbox where consumer = 'community-study-participants'`,
          ),
        }),
        { timeout: 15_000, interval: 250 },
      )
      .toEqual({
        directories: [12, 12, 12],
        registrationsApplied: [12, 12, 12],
        identityStartDates: 6,
        identityConsentsApplied: 6,
        communityParticipants: 6,
        communityConsentsApplied: 6,
      });
  });

  it('when the instance whose relay publishes is killed, the other takes over at once', async () => {
    const [a, b] = system.gateways as [string, string];
    const active = (await relayRoles('identity'))[0] === 'active' ? 'identity' : 'identity-b';
    const member = await registerSurely(a, system.appUrl, 'Takeover');
    const session = await member.login();
    const token = new Member(b, system.appUrl);
    token.cookies.set('sw_access', session.cookies.get('sw_access')!);

    // Killed: the supervisor restarts it, but the standby publishes before it is back.
    const killed = system.kill(active);
    session.gateway = active === 'identity' ? b : a; // through the gateway whose identity lives
    await expect.poll(async () => (await session.request('POST', '/api/logout', {})).status, { timeout: 10_000, interval: 50 }).toBe(200);
    expect(await refusedWithin(token, b, 2_000)).toBe(true);
    expect(await refusedWithin(token, a, 2_000)).toBe(true);
    await killed;
    // The one that took over keeps publishing; the restarted one stands by.
    const expected = active === 'identity' ? ['standby', 'active'] : ['active', 'standby'];
    await expect.poll(() => relayRoles('identity'), { timeout: 10_000 }).toEqual(expected);
  });
});
