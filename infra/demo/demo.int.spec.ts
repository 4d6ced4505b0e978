import {
  ACCESS_COOKIE,
  addDays,
  calendarDateIn,
  daysBetween,
  lastEndedNight,
  type ResearchRun,
  type SleepLog,
} from '@sleepweave/contracts';
import type { ServiceConfig, ServiceDefinition } from '@sleepweave/service-kit';
import { startTestService, testEnv, type TestService } from '@sleepweave/service-kit/testing';
import { freePort } from '@sleepweave/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCommunityConfig } from '../../services/community/src/config.ts';
import { communityService } from '../../services/community/src/service.ts';
import { readIdentityConfig } from '../../services/identity/src/config.ts';
import { identityService } from '../../services/identity/src/service.ts';
import { randomIp } from '../../services/identity/src/test/helpers.ts';
import { grantAdmin } from '../../services/identity/src/users/commands.ts';
import { readJournalConfig } from '../../services/journal/src/config.ts';
import { journalService } from '../../services/journal/src/service.ts';
import { readResearchExportConfig } from '../../services/research-export/src/config.ts';
import { researchExportService } from '../../services/research-export/src/service.ts';
import { readStudyConfig } from '../../services/study/src/config.ts';
import { studyService } from '../../services/study/src/service.ts';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD, generateCohort, type DemoCohort } from './cohort.ts';
import { addDemoCohort, DemoCohortExists, listDemoAccounts, removeDemoCohort, type SeedResult } from './seed.ts';
import {
  checkRunning,
  checkSameVersion,
  connectDemoSystem,
  DEMO_SERVICES,
  serviceUrls,
  type DemoService,
  type DemoSystem,
} from './system.ts';

/**
 * The demo against the real services (each on its own port and database, consumers reading
 * their producers' history over HTTP, as npm start runs them): a small cohort goes in
 * through the commands, and what a participant and the admin see comes out of the routes.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyService = TestService<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const SERVICES: Record<DemoService, { definition: ServiceDefinition<any, any>; read: (env: NodeJS.ProcessEnv) => ServiceConfig }> = {
  identity: { definition: identityService, read: readIdentityConfig },
  study: { definition: studyService, read: readStudyConfig },
  journal: { definition: journalService, read: readJournalConfig },
  community: { definition: communityService, read: readCommunityConfig },
  'research-export': { definition: researchExportService, read: readResearchExportConfig },
};

const PARTICIPANTS = 20;
let env: NodeJS.ProcessEnv;
const services = {} as Record<DemoService, AnyService>;
let system: DemoSystem;
let cohort: DemoCohort;
/** When the cohort was made: what it logged depends on the hour in each participant's zone. */
const generatedAt = new Date();
let seeded: SeedResult;

beforeAll(async () => {
  const ports = Object.fromEntries(await Promise.all(DEMO_SERVICES.map(async (name) => [name, await freePort()] as const)));
  env = testEnv({
    HOST: '127.0.0.1',
    IDENTITY_URL: `http://127.0.0.1:${ports.identity}`,
    STUDY_URL: `http://127.0.0.1:${ports.study}`,
    JOURNAL_URL: `http://127.0.0.1:${ports.journal}`,
    COMMUNITY_URL: `http://127.0.0.1:${ports.community}`,
    RESEARCH_EXPORT_URL: `http://127.0.0.1:${ports['research-export']}`,
    RESEARCH_EXPORT_TIME: 'off',
  });
  // identity first: the others verify tokens with its keys
  for (const name of DEMO_SERVICES) {
    services[name] = await startTestService(SERVICES[name].definition, SERVICES[name].read({ ...env, PORT: String(ports[name]) }), {
      listen: true,
      history: 'http',
    });
  }
  await checkRunning(serviceUrls(env));
  system = await connectDemoSystem(env, 6);
  cohort = generateCohort({ participants: PARTICIPANTS, seed: 'integration', now: generatedAt });
  seeded = await addDemoCohort(system, cohort, { concurrency: 4, followTimeoutMs: 60_000 });
}, 180_000);

afterAll(async () => {
  await system?.close();
  for (const name of [...DEMO_SERVICES].reverse()) await services[name]?.cleanup().catch(() => undefined);
});

/** Signs in through identity's route; her access token. */
async function signIn(email: string): Promise<string> {
  const response = await services.identity.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: DEMO_PASSWORD },
    remoteAddress: randomIp(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.cookies.find((c) => c.name === ACCESS_COOKIE)!.value;
}

const get = async (service: DemoService, url: string, token: string) => {
  const response = await services[service].app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, body: response.json() as unknown };
};

describe('npm run demo against the real services', () => {
  it('gives the day-20 participant every night of her study so far, on its date, in its phase', async () => {
    const day20 = cohort.participants.find((p) => p.showcase === 'day20')!;
    const token = await signIn(day20.email);
    const today = calendarDateIn(day20.timezone, generatedAt);
    // every night of her study that had ended by the cohort's last instant (a minute before
    // it was made): up to last night, or the night before when that was before 04:00 her time
    const latest = new Date(generatedAt.getTime() - 60_000);
    const last = lastEndedNight(day20.timezone, latest) < addDays(today, -1) ? addDays(today, -2) : addDays(today, -1);
    const nights = daysBetween(addDays(today, -19), last) + 1;

    const consent = await get('study', '/api/sleep/consent', token);
    expect(consent.body).toMatchObject({ hasConsent: true, studyStartDate: addDays(today, -19) });
    const user = await get('identity', '/api/auth/user', token);
    expect(user.body).toMatchObject({ email: day20.email, studyStartDate: addDays(today, -19), role: 'participant' });

    const logs = (await get('study', '/api/sleep/logs', token)).body as SleepLog[];
    expect(logs.map((log) => log.date)).toEqual(Array.from({ length: nights }, (_, i) => addDays(last, -i)));
    expect(logs.map((log) => log.studyDay)).toEqual(Array.from({ length: nights }, (_, i) => nights - i));
    expect(logs.filter((log) => log.phase === 'polyester')).toHaveLength(14);
    expect(logs.filter((log) => log.phase === 'washout')).toHaveLength(nights - 14);
    // the values are the generated ones, as the route gives them back
    const first = day20.nights[0]!;
    expect(logs.at(-1)).toMatchObject({ date: first.date, sleepScore: first.values.sleepScore, avgHrv: first.values.avgHrv });

    const entries = (await get('journal', '/api/journal/entries', token)).body as unknown[];
    expect(entries).toHaveLength(day20.journal.length);
    expect(entries.length).toBeGreaterThan(5);
  });

  it('wrote every account, consent, night, revision and journal entry it generated, and the community', async () => {
    const nights = cohort.participants.flatMap((p) => p.nights);
    expect(seeded.counts).toEqual({
      accounts: PARTICIPANTS + 1,
      consents: cohort.participants.filter((p) => p.consentAt).length,
      nights: nights.length,
      revisions: nights.filter((n) => n.revision).length,
      journalEntries: cohort.participants.reduce((sum, p) => sum + p.journal.length, 0),
      threads: cohort.threads.filter((t) => t.name !== null).length,
      messages: cohort.threads.reduce((sum, t) => sum + t.messages.length, 0),
    });
    const token = await signIn(cohort.participants[1]!.email);
    const threads = (await get('community', '/api/community/threads', token)).body as { name: string }[];
    for (const thread of cohort.threads) if (thread.name) expect(threads.map((t) => t.name)).toContain(thread.name);
    const fresh = await signIn(cohort.participants.find((p) => p.stage === 'not_consented')!.email);
    expect((await get('study', '/api/sleep/consent', fresh)).body).toMatchObject({ hasConsent: false });
  });

  it('checks that the running services are this code (every migration applied) and that they answer', async () => {
    await checkSameVersion(system);
    const [last] = await system.sql.study<{ name: string }[]>`select name from schema_migrations order by name desc limit 1`;
    await system.sql.study`delete from schema_migrations where name = ${last!.name}`;
    try {
      await expect(checkSameVersion(system)).rejects.toThrow(
        `The running study service is older than this code (its database lacks ${last!.name})`,
      );
    } finally {
      await system.sql.study`insert into schema_migrations (name) values (${last!.name})`;
    }
    const urls = { ...serviceUrls(env), journal: 'http://127.0.0.1:1' };
    await expect(checkRunning(urls, 0)).rejects.toThrow('journal at http://127.0.0.1:1 does not answer. Start the system first');
  });

  it('refuses a second cohort while the first is there', async () => {
    await expect(addDemoCohort(system, cohort, { concurrency: 2 })).rejects.toThrow(DemoCohortExists);
  });

  it('lets the demo admin run the research export, which finds the built-in fabric effect', async () => {
    const token = await signIn(DEMO_ADMIN_EMAIL);
    const started = await services['research-export'].app.inject({
      method: 'POST',
      url: '/api/admin/research/runs',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json() as { id: string };
    let run: ResearchRun;
    for (;;) {
      run = (await get('research-export', `/api/admin/research/runs/${id}`, token)).body as ResearchRun;
      if (run.status === 'finished' || run.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(run.status, run.failure ?? '').toBe('finished');
    const summary = run.summary!;
    expect(summary.nights).toBe(cohort.participants.flatMap((p) => p.nights).length);
    expect(summary.participantsIncluded).toBeGreaterThanOrEqual(6);
    const dz = (metric: string) => summary.primary.find((row) => row.metric === metric)!.dz!;
    // linen against polyester: more sleep score and HRV, fewer heat wake-ups, lower resting HR
    expect(dz('sleep_score')).toBeGreaterThan(0.5);
    expect(dz('avg_hrv')).toBeGreaterThan(0);
    expect(dz('resting_hr')).toBeLessThan(0);
    expect(dz('heat_wakeups')).toBeLessThan(0);
  }, 60_000);

  it('--reset deletes every demo account through account deletion, and every service forgets them', async () => {
    const day20 = cohort.participants.find((p) => p.showcase === 'day20')!;
    const token = await signIn(day20.email);
    // the demo admin is the only admin here: identity keeps the last admin's account
    expect(await removeDemoCohort(system, { concurrency: 4, followTimeoutMs: 60_000 })).toEqual({
      removed: PARTICIPANTS,
      keptAdmin: DEMO_ADMIN_EMAIL,
    });

    expect((await listDemoAccounts(system)).map((a) => a.email)).toEqual([DEMO_ADMIN_EMAIL]);
    const login = await services.identity.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: day20.email, password: DEMO_PASSWORD },
      remoteAddress: randomIp(),
    });
    expect(login.statusCode).toBe(401);
    // her token lives on for a moment; what it finds is nothing
    expect((await get('study', '/api/sleep/logs', token)).body).toEqual([]);
    expect((await get('study', '/api/sleep/consent', token)).body).toMatchObject({ hasConsent: false });
    expect((await get('journal', '/api/journal/entries', token)).body).toEqual([]);
    const threads = (await get('community', '/api/community/threads', token)).body as { name: string }[];
    expect(threads.filter((t) => cohort.threads.some((c) => c.name === t.name))).toEqual([]);
  }, 90_000);

  it('adds a cohort again after a reset, with the demo admin that stayed; with another admin she goes too', async () => {
    const again = generateCohort({ participants: 3, seed: 'again', now: new Date() });
    const result = await addDemoCohort(system, again, { concurrency: 3, followTimeoutMs: 60_000 });
    expect(result.counts.accounts).toBe(4);
    expect((await listDemoAccounts(system)).map((a) => a.email).sort()).toEqual(
      [DEMO_ADMIN_EMAIL, ...again.participants.map((p) => p.email)].sort(),
    );
    await signIn(DEMO_ADMIN_EMAIL);

    const register = await services.identity.app.inject({
      method: 'POST',
      url: '/api/register',
      remoteAddress: randomIp(),
      payload: {
        email: 'lead@example.com',
        password: 'a real admin at last',
        confirmPassword: 'a real admin at last',
        firstName: 'Lea',
        lastName: 'Lead',
        dateOfBirth: '1980-01-01',
        timezone: 'Europe/London',
        hormonalStage: 'Fertile',
      },
    });
    expect(register.statusCode, register.body).toBe(201);
    expect(await grantAdmin(system.identity, 'lead@example.com')).toBe('granted');
    expect(await removeDemoCohort(system, { concurrency: 4, followTimeoutMs: 60_000 })).toEqual({ removed: 4, keptAdmin: null });
    expect(await listDemoAccounts(system)).toEqual([]);
  }, 90_000);
});
