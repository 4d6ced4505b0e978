import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectDatabase, databaseName, type Sql } from '@sleepweave/service-kit';
import { freePort, freePortRange } from '@sleepweave/test-servers';
import { buildApps } from '../../infra/build-apps.mjs';
import { presentServices, SERVICE_PORT_OFFSETS, systemCommands } from '../../infra/services.mjs';
import { supervise, type Supervisor } from '../../infra/supervisor.mjs';

/**
 * The whole system as `npm start` runs it, one process per service and gateway under the
 * supervisor, against a PostgreSQL and a NATS of the test's own: for tests that kill
 * processes and restart servers. `instances: 2` runs every process twice (the second set
 * suffixed `-b`, on ports of its own, with a gateway of its own), sharing the databases
 * and the bus as replicas behind a load balancer would.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ProcessSystem {
  /** Each instance's gateway, e.g. `http://127.0.0.1:23456`. */
  gateways: string[];
  /** Origin the gateways accept (their APP_URL). */
  appUrl: string;
  /** Every process name (`identity`, `gateway`, `identity-b` ...). */
  processes: string[];
  /** Where a process answers /health. */
  healthUrl(process: string): string;
  supervisor: Supervisor;
  /** The combined, prefixed output of every process. */
  logFile: string;
  /** A connection to a service's database (closed by stop()). */
  sql(service: string): Sql;
  /** Resolves once every process answers /health with 200 (consumers following, relay caught up). */
  healthy(timeoutMs?: number): Promise<void>;
  /** SIGKILLs a process; resolves once its replacement answers /health with 200, with how long that took. */
  kill(process: string): Promise<{ backAfterMs: number }>;
  stop(): Promise<void>;
}

export interface ProcessSystemOptions {
  databaseUrl: string;
  natsUrl: string;
  instances?: 1 | 2;
  env?: Record<string, string>;
}

export const SERVICES = presentServices().map((s) => s.name);

async function answersHealth(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

export async function startProcessSystem(options: ProcessSystemOptions): Promise<ProcessSystem> {
  const instances = options.instances ?? 1;
  // the processes run the compiled apps, as npm start does
  await buildApps();
  const span = Math.max(...Object.values(SERVICE_PORT_OFFSETS)) + 1;
  const logDir = await mkdtemp(join(tmpdir(), 'sw-system-'));
  const logFile = join(logDir, 'processes.log');
  const out = createWriteStream(logFile);

  const gatewayPorts = [await freePort(), await freePort()].slice(0, instances);
  const appUrl = `http://127.0.0.1:${gatewayPorts[0]}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: options.databaseUrl,
    NATS_URL: options.natsUrl,
    DB_PREFIX: `sw_sys_${randomBytes(4).toString('hex')}_`,
    BUS_PREFIX: `sys${randomBytes(4).toString('hex')}`,
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    APP_URL: appUrl,
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    MAIL_OUTBOX_DIR: join(logDir, 'outbox'),
    WEB_DIST: join(logDir, 'no-web-build'),
    ...options.env,
  };

  const health = new Map<string, string>();
  const commands = [];
  const first = await freePortRange(span * instances);
  for (let instance = 0; instance < instances; instance++) {
    const base = first + instance * span;
    const suffix = instance === 0 ? '' : '-b';
    commands.push(...systemCommands({ base, gatewayPort: gatewayPorts[instance], env, suffix, compiled: true }));
    for (const name of SERVICES) health.set(`${name}${suffix}`, `http://127.0.0.1:${base + SERVICE_PORT_OFFSETS[name]!}/health`);
    health.set(`gateway${suffix}`, `http://127.0.0.1:${gatewayPorts[instance]}/health`);
  }
  const supervisor = supervise(commands, { cwd: root, out, color: false });
  const connections = new Map<string, Sql>();

  const healthUrl = (process: string) => {
    const url = health.get(process);
    if (!url) throw new Error(`no process ${process}`);
    return url;
  };

  const system: ProcessSystem = {
    gateways: gatewayPorts.map((port) => `http://127.0.0.1:${port}`),
    appUrl,
    processes: [...health.keys()],
    healthUrl,
    supervisor,
    logFile,
    sql(service) {
      let sql = connections.get(service);
      if (!sql) {
        sql = connectDatabase(options.databaseUrl, databaseName({ DB_PREFIX: env.DB_PREFIX } as never, service), { max: 2 });
        connections.set(service, sql);
      }
      return sql;
    },
    async healthy(timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const down = (await Promise.all([...health].map(async ([name, url]) => ((await answersHealth(url)) ? null : name)))).filter(
          Boolean,
        );
        if (down.length === 0) return;
        if (Date.now() > deadline) throw new Error(`not healthy within ${timeoutMs} ms: ${down.join(', ')} (see ${logFile})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async kill(process) {
      const pid = supervisor.pid(process);
      if (!pid) throw new Error(`${process} is not running`);
      const killedAt = Date.now();
      globalThis.process.kill(pid, 'SIGKILL');
      const deadline = killedAt + 60_000;
      while (supervisor.pid(process) === pid || supervisor.pid(process) === undefined || !(await answersHealth(healthUrl(process)))) {
        if (Date.now() > deadline) throw new Error(`${process} did not come back within 60 s (see ${logFile})`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return { backAfterMs: Date.now() - killedAt };
    },
    async stop() {
      await supervisor.stop();
      for (const sql of connections.values()) await sql.end({ timeout: 1 }).catch(() => undefined);
      await new Promise((resolve) => out.end(resolve));
    },
  };
  return system;
}
