import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { connectDatabase, createLogger, databaseName, type Sql } from '@sleepweave/service-kit';
import { readCommunityConfig } from '../../services/community/src/config.ts';
import { createCommunityContext, type CommunityContext } from '../../services/community/src/context.ts';
import { readIdentityConfig } from '../../services/identity/src/config.ts';
import { createIdentityContext, type IdentityContext } from '../../services/identity/src/context.ts';
import { loadSigningKeys } from '../../services/identity/src/sessions/tokens.ts';
import { readJournalConfig } from '../../services/journal/src/config.ts';
import { createJournalContext, type JournalContext } from '../../services/journal/src/context.ts';
import { readResearchExportConfig } from '../../services/research-export/src/config.ts';
import { readStudyConfig } from '../../services/study/src/config.ts';
import { createStudyContext, type StudyContext } from '../../services/study/src/context.ts';
import { SERVICE_PORT_OFFSETS, servicePortBase, urlVariable } from '../services.mjs';

/**
 * The running system as the demo sees it: each service's own context on its own database
 * (the same settings as `npm start`: DATABASE_URL, DB_PREFIX, BUS_PREFIX ...), so the demo
 * writes through the services' commands exactly as their routes do, and the services'
 * relays publish what it wrote. The services must be running: their relays and consumers
 * carry everything else.
 */

/** The system is not there or not this code's: nothing was written. */
export class SystemNotReady extends Error {
  override name = 'SystemNotReady';
}

/** The services the demo writes to or waits for. */
export const DEMO_SERVICES = ['identity', 'study', 'journal', 'community', 'research-export'] as const;
export type DemoService = (typeof DEMO_SERVICES)[number];

export interface DemoSystem {
  identity: IdentityContext;
  study: StudyContext;
  journal: JournalContext;
  community: CommunityContext;
  /** research-export publishes nothing the demo writes; it is only waited for (read only). */
  researchExport: Sql;
  /** Every connection, by service. */
  sql: Record<DemoService, Sql>;
  close(): Promise<void>;
}

/**
 * Where each service answers: its `<NAME>_URL` when set, else SERVICE_PORT_BASE + its
 * offset, as `npm start` (infra/services.mjs) places it.
 */
export function serviceUrls(env: NodeJS.ProcessEnv): Record<DemoService, string> {
  const base = servicePortBase(env);
  if (base === null) throw new Error(`SERVICE_PORT_BASE must be a port number, not ${env.SERVICE_PORT_BASE}`);
  return Object.fromEntries(
    DEMO_SERVICES.map((name) => [name, env[urlVariable(name)] ?? `http://127.0.0.1:${base + SERVICE_PORT_OFFSETS[name]!}`]),
  ) as Record<DemoService, string>;
}

/**
 * Every service the demo needs answers its /health with 200 (it reaches its database and
 * NATS, and its consumers follow the bus), waiting up to `timeoutMs` for one that is
 * starting. Throws a message naming the first that does not.
 */
export async function checkRunning(urls: Record<DemoService, string>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const name of DEMO_SERVICES) {
    for (;;) {
      let problem: string;
      try {
        const response = await fetch(`${urls[name]}/health`, { signal: AbortSignal.timeout(5_000) });
        if (response.ok) break;
        problem = `answers ${response.status}: ${JSON.stringify(await response.json().catch(() => null))}`;
      } catch {
        problem = 'does not answer';
      }
      if (Date.now() > deadline) {
        throw new SystemNotReady(
          `${name} at ${urls[name]} ${problem}. Start the system first (npm start, with the same DB_PREFIX, BUS_PREFIX and SERVICE_PORT_BASE) and wait until it is up.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Connects to every service's database with its own settings (read from `env`). */
export async function connectDemoSystem(env: NodeJS.ProcessEnv, connections: number): Promise<DemoSystem> {
  const logger = createLogger('demo', 'warn');
  const configs = {
    identity: readIdentityConfig(env),
    study: readStudyConfig(env),
    journal: readJournalConfig(env),
    community: readCommunityConfig(env),
    'research-export': readResearchExportConfig(env),
  };
  const sql = Object.fromEntries(
    DEMO_SERVICES.map((name) => [
      name,
      // A bulk loader: commits need not wait for the disk (what is committed is the same).
      connectDatabase(configs[name].DATABASE_URL, databaseName(configs[name], name), {
        max: connections,
        settings: { synchronous_commit: 'off' },
      }),
    ]),
  ) as Record<DemoService, Sql>;
  const close = async () => {
    await Promise.all(Object.values(sql).map((s) => s.end({ timeout: 5 })));
  };
  try {
    return {
      identity: createIdentityContext({ config: configs.identity, sql: sql.identity, logger }, await loadSigningKeys(sql.identity)),
      study: createStudyContext({ config: configs.study, sql: sql.study, logger }),
      journal: createJournalContext({ config: configs.journal, sql: sql.journal, logger }),
      community: createCommunityContext({ config: configs.community, sql: sql.community, logger }),
      researchExport: sql['research-export'],
      sql,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Every migration of this code is applied in each service's database: the demo runs this
 * code's commands against databases the running services migrated, so a system started
 * from an older checkout would refuse them halfway. Throws naming what is missing.
 */
export async function checkSameVersion(system: DemoSystem): Promise<void> {
  for (const name of DEMO_SERVICES) {
    const folder = fileURLToPath(new URL(`../../services/${name}/migrations`, import.meta.url));
    const files = (await readdir(folder)).filter((file) => file.endsWith('.sql'));
    const applied = new Set(
      (await system.sql[name]<{ name: string }[]>`select name from schema_migrations`.catch(() => [])).map((row) => row.name),
    );
    const missing = files.filter((file) => !applied.has(file));
    if (missing.length > 0) {
      throw new SystemNotReady(
        `The running ${name} service is older than this code (its database lacks ${missing.join(', ')}). Restart the system (npm start), then run the demo again.`,
      );
    }
  }
}
