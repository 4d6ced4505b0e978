import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { freePort } from '@sleepweave/test-servers';
import { dropDatabase, databaseName, readModelsOf, type ServiceConfig, type ServiceDefinition } from '@sleepweave/service-kit';
import { snapshotTables, startTestService, testEnv, type TestService } from '@sleepweave/service-kit/testing';
import { readCommunityConfig } from '../../services/community/src/config.ts';
import { communityService } from '../../services/community/src/service.ts';
import { readIdentityConfig } from '../../services/identity/src/config.ts';
import { identityService } from '../../services/identity/src/service.ts';
import { readJournalConfig } from '../../services/journal/src/config.ts';
import { journalService } from '../../services/journal/src/service.ts';
import { readLibraryConfig } from '../../services/library/src/config.ts';
import { libraryService } from '../../services/library/src/service.ts';
import { readStudyConfig } from '../../services/study/src/config.ts';
import { studyService } from '../../services/study/src/service.ts';

/**
 * The whole backend in one process, as `npm start` wires it: every service listening on a
 * port of its own, all on one database prefix, one bus prefix and one internal token, each
 * consumer reading its producer's history over HTTP. For tests that cross services.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyService = TestService<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDefinition = ServiceDefinition<any, any>;

const SERVICES = {
  identity: { definition: identityService as AnyDefinition, readConfig: readIdentityConfig as (env: NodeJS.ProcessEnv) => ServiceConfig },
  study: { definition: studyService as AnyDefinition, readConfig: readStudyConfig as (env: NodeJS.ProcessEnv) => ServiceConfig },
  journal: { definition: journalService as AnyDefinition, readConfig: readJournalConfig as (env: NodeJS.ProcessEnv) => ServiceConfig },
  community: {
    definition: communityService as AnyDefinition,
    readConfig: readCommunityConfig as (env: NodeJS.ProcessEnv) => ServiceConfig,
  },
  library: { definition: libraryService as AnyDefinition, readConfig: readLibraryConfig as (env: NodeJS.ProcessEnv) => ServiceConfig },
};
export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

export interface System {
  env: NodeJS.ProcessEnv;
  services: Record<ServiceName, AnyService>;
  urls: Record<ServiceName, string>;
  /** Stops one service and starts it again on the same port and database. */
  restart(name: ServiceName): Promise<AnyService>;
  stop(name: ServiceName): Promise<void>;
  start(name: ServiceName): Promise<AnyService>;
  /** Every read-model table of a service, rows in a stable order. */
  snapshot(name: ServiceName): Promise<Record<string, unknown[]>>;
  /** Resolves once every consumer of every running service follows the bus. */
  settled(timeoutMs?: number): Promise<void>;
  cleanup(): Promise<void>;
}

export async function startSystem(overrides: NodeJS.ProcessEnv = {}): Promise<System> {
  const ports = Object.fromEntries(await Promise.all(SERVICE_NAMES.map(async (name) => [name, await freePort()] as const))) as Record<
    ServiceName,
    number
  >;
  const urls = Object.fromEntries(SERVICE_NAMES.map((name) => [name, `http://127.0.0.1:${ports[name]}`])) as Record<ServiceName, string>;
  const env = testEnv({
    HOST: '127.0.0.1',
    IDENTITY_URL: urls.identity,
    STUDY_URL: urls.study,
    JOURNAL_URL: urls.journal,
    COMMUNITY_URL: urls.community,
    LIBRARY_URL: urls.library,
    ...overrides,
  });
  const configOf = (name: ServiceName) => SERVICES[name].readConfig({ ...env, PORT: String(ports[name]) });
  const services = {} as Record<ServiceName, AnyService>;

  const start = async (name: ServiceName) => {
    services[name] = await startTestService(SERVICES[name].definition, configOf(name), { listen: true, history: 'http' });
    return services[name];
  };
  const stop = async (name: ServiceName) => {
    await services[name]?.stop();
  };
  // identity first: the others verify tokens with its keys
  for (const name of SERVICE_NAMES) await start(name);

  const system: System = {
    env,
    services,
    urls,
    start,
    stop,
    async restart(name) {
      await stop(name);
      return start(name);
    },
    async snapshot(name) {
      const service = services[name];
      const tables = readModelsOf(service.definition, service.context).flatMap((model) => model.tables);
      return snapshotTables(service.deps.sql, tables);
    },
    async settled(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const pending = SERVICE_NAMES.flatMap((name) =>
          services[name].consumers.filter((c) => c.state() !== 'following').map((c) => c.name),
        );
        if (pending.length === 0) return;
        if (Date.now() > deadline) throw new Error(`consumers still not following the bus: ${pending.join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async cleanup() {
      for (const name of [...SERVICE_NAMES].reverse()) await services[name]?.stop().catch(() => undefined);
      const config = configOf('identity');
      for (const name of SERVICE_NAMES) await dropDatabase(config.DATABASE_URL, databaseName(config, name));
      await deleteStreamsOfPrefix(config.NATS_URL, config.BUS_PREFIX);
    },
  };
  return system;
}
