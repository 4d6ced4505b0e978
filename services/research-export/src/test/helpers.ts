import { randomBytes, randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testEnvelope } from '@sleepweave/bus/testing';
import { addDays, SLEEP_LOG_FIELD_LIST, type IntegrationEventData, type Role } from '@sleepweave/contracts';
import { migrateEventStore } from '@sleepweave/event-store';
import {
  connectDatabase,
  dropDatabase,
  ensureDatabase,
  findDirectoryUser,
  migrateUserDirectory,
  runMigrations,
  type AccessTokenVerifier,
  type Sql,
} from '@sleepweave/service-kit';
import { fakeProducers, startTestService, testEnv } from '@sleepweave/service-kit/testing';
import { readResearchExportConfig } from '../config.ts';
import { researchExportService } from '../service.ts';

/**
 * Tokens for tests: `test-token:<role>:<userId>`. Signature checks of real tokens are tested
 * in service-kit, identity and the gateway; here the caller and her role are what matter.
 */
const testVerifier: AccessTokenVerifier = async (token) => {
  const match = /^test-token:(participant|admin):([0-9a-f-]{36})$/.exec(token);
  if (!match) throw new Error('not a test token');
  return { sub: match[2]!, sid: randomUUID(), role: match[1] as Role, exp: Math.floor(Date.now() / 1000) + 900 };
};

/** The service with identity, study and journal played by the test: what it publishes as them is their history. */
export async function startResearchExport(
  env: NodeJS.ProcessEnv = {},
  options: { background?: boolean } = {},
  overrides: Partial<typeof researchExportService> = {},
) {
  // No nightly run unless a test asks for one.
  const config = readResearchExportConfig(testEnv({ RESEARCH_EXPORT_TIME: 'off', ...env }));
  const producers = await fakeProducers(config);
  const service = await startTestService({ ...researchExportService, verifier: () => testVerifier, ...overrides }, config, {
    ...options,
    history: producers.history,
  });
  return {
    ...service,
    producers,
    async cleanup() {
      await service.cleanup();
      await producers.close();
    },
  };
}
export type ResearchExport = Awaited<ReturnType<typeof startResearchExport>>;

export const bearer = (userId: string, role: Role = 'participant') => ({ authorization: `Bearer test-token:${role}:${userId}` });

/** A member as identity announces her; resolves once the service knows her. */
export async function addMember(service: ResearchExport, profile: { dateOfBirth?: string | null; hormonalStage?: string | null } = {}) {
  const userId = randomUUID();
  await service.producers.publish(
    testEnvelope('identity.user.registered', {
      userId,
      email: `member.${userId}@example.com`,
      firstName: 'Ines',
      lastName: 'Okafor',
      dateOfBirth: profile.dateOfBirth === undefined ? '1971-06-01' : profile.dateOfBirth,
      timezone: 'Europe/London',
      hormonalStage: (profile.hormonalStage === undefined ? 'Menopause' : profile.hormonalStage) as 'Menopause' | null,
      profileImageUrl: null,
      role: 'participant',
      registeredAt: new Date().toISOString(),
    }),
  );
  await waitUntil(async () => (await findDirectoryUser(service.deps.sql, userId)) !== undefined, `the service never learnt of ${userId}`);
  return userId;
}

/** Polls until the check holds (a loop, not expect.poll: it also runs in beforeAll). */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} (within ${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function consent(service: ResearchExport, userId: string, studyStartDate: string) {
  await service.producers.publish(
    testEnvelope('study.consent.given', { userId, consentVersion: '1.0', acceptedAt: `${studyStartDate}T21:00:00.000Z`, studyStartDate }),
  );
}

type NightData = IntegrationEventData<'study.sleep_log.recorded'>;

/**
 * A night as study publishes it, recorded the morning after, worn in the phase's material:
 * every other field null unless given.
 */
export function night(userId: string, fields: Partial<NightData> & Pick<NightData, 'date' | 'studyDay' | 'phase'>): NightData {
  const empty = Object.fromEntries(SLEEP_LOG_FIELD_LIST.map((field) => [field.key, null]));
  const recommendedMaterial = fields.phase === 'linen' ? '100% Linen' : fields.phase === 'polyester' ? '100% Polyester' : '100% Cotton';
  return {
    logId: randomUUID(),
    userId,
    recommendedMaterial,
    recordedAt: `${addDays(fields.date, 1)}T07:00:00.000Z`,
    ...(empty as Omit<NightData, 'logId' | 'userId' | 'date' | 'studyDay' | 'phase' | 'recommendedMaterial' | 'timezone' | 'recordedAt'>),
    sleepwearMaterial: recommendedMaterial,
    ...fields,
  };
}

const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));

/**
 * A database of its own (named after `purpose`) as a deployment before migration `next`
 * left it: the event store, the directory and the service's migrations before `next`.
 * `migrateRest()` applies the others, as the next start would; `drop()` removes it.
 */
export async function databaseBeforeMigration(purpose: string, next: string, max = 2) {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
  const name = `sw_test_${randomBytes(4).toString('hex')}_${purpose}`;
  await ensureDatabase(url, name);
  const sql: Sql = connectDatabase(url, name, { max });
  await migrateEventStore(sql);
  await migrateUserDirectory(sql);
  const earlier = await mkdtemp(join(tmpdir(), 'research-migrations-'));
  try {
    for (const file of (await readdir(MIGRATIONS)).filter((file) => file < next))
      await copyFile(join(MIGRATIONS, file), join(earlier, file));
    await runMigrations(sql, earlier);
  } finally {
    await rm(earlier, { recursive: true, force: true });
  }
  return {
    sql,
    migrateRest: () => runMigrations(sql, MIGRATIONS),
    async drop() {
      await sql.end();
      await dropDatabase(url, name);
    },
  };
}
