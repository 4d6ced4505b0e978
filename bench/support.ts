/**
 * What the benches that start apps of their own share: compiling them as `npm start` does,
 * starting one (or a floor's bare server, or another program) in a process that ends with
 * the bench, waiting for it, signing a participant up, and measuring requests per second.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { databaseName, dropDatabase, STOP_ON_STDIN_END } from '@sleepweave/service-kit';
import { Pool } from 'undici';
import { APP_NODE_ARGS } from '../infra/services.mjs';
import { newRegistration } from '../services/identity/src/test/helpers.ts';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Compiles the apps (infra/build-apps.mjs), as npm start does before it runs them. */
export function buildApps(): void {
  if (spawnSync(process.execPath, ['infra/build-apps.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('build failed');
}

/** Runs a script (an app's dist/server.js) in a process of its own; `nodeArgs` go before it. */
export function startProcess(script: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  // A pipe it stops at the end of (STOP_ON_STDIN_END): a bench killed outright takes its apps with it.
  return spawn(process.execPath, [...nodeArgs, script], {
    cwd: root,
    env: { ...env, [STOP_ON_STDIN_END]: '1' },
    stdio: ['pipe', 'ignore', 'inherit'],
  });
}

/**
 * Runs a floor's bare server (an ES module, as text) in a process of its own, from the
 * repository (its packages resolve), ending at the end of its standard input like the apps
 * (a pipe from this process): a bench killed outright takes its floor with it.
 */
export function startFloorScript(script: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const endsWithBench = `process.stdin.on('end', () => process.exit(0)).resume();`;
  return spawn(process.execPath, ['--input-type=module', '-e', `${endsWithBench}\n${script}`], {
    cwd: root,
    env,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
}

/**
 * Runs a program that is not one of ours (Lighthouse's Chromium) so that it ends with this
 * bench: a small Node process starts it, with a pipe from here as its own standard input, and
 * kills it (SIGKILL) when that input ends, because this bench ended it (`stdin.end()`) or
 * died; it then exits as the program did. `output`: where the program's output goes.
 */
export function startEndingWithBench(command: string, args: string[], output: 'ignore' | 'inherit' = 'ignore'): ChildProcess {
  const keeper = `
    const { spawn } = require('node:child_process');
    const [command, ...args] = JSON.parse(process.argv[1]);
    const program = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    program.on('error', () => process.exit(1));
    program.on('exit', (code) => process.exit(code ?? 1));
    process.stdin.on('end', () => program.kill('SIGKILL')).resume();`;
  return spawn(process.execPath, ['-e', keeper, JSON.stringify([command, ...args])], { stdio: ['pipe', output, output] });
}

/** Stops the processes (SIGTERM) and waits for them to exit. */
export async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
}

/** Resolves once the URL answers at all (without the other services a health says degraded). */
export async function waitFor(url: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return;
    if (tries > 600) throw new Error(`${url} did not start`);
    await sleep(100);
  }
}

/** A new participant signed up at identity (or through a gateway): her id, access token and cookies. */
export async function signUp(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ userId: string; accessToken: string; cookies: string }> {
  const registered = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(newRegistration({ timezone: 'Europe/London' })),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const userId = ((await registered.json()) as { user: { id: string } }).user.id;
  const cookies = registered.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const accessToken = cookies.find((c) => c.startsWith('sw_access='))!.slice('sw_access='.length);
  return { userId, accessToken, cookies: cookies.join('; ') };
}

/**
 * Requests per second over `seconds` with `concurrency` in flight; every answer must have
 * the expected status.
 */
export async function throughput(
  origin: string,
  request: { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string },
  options: { seconds: number; concurrency: number; status: number },
): Promise<number> {
  const pool = new Pool(origin, { connections: options.concurrency, pipelining: 1 });
  let done = 0;
  const until = performance.now() + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < until) {
        const response = await pool.request(request);
        await response.body.dump();
        if (response.statusCode !== options.status) throw new Error(`${request.method} ${origin}${request.path}: ${response.statusCode}`);
        done += 1;
      }
    }),
  );
  await pool.close();
  return done / options.seconds;
}

/**
 * CPU time (user + system) a process has used so far, in seconds, from /proc (Linux); null
 * where there is none.
 */
export function cpuSeconds(pid: number | undefined, options: { reapedChildren?: boolean } = {}): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (USER_HZ: 100 on Linux);
    // cutime and cstime (16 and 17) those of its children that ended and were waited for
    const own = Number(fields[11]) + Number(fields[12]);
    return (options.reapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds the processes of one command (`comm`) on this machine have used so far, those
 * that ended included (a PostgreSQL backend's time goes to the postmaster when it ends:
 * pgbench's connections end with each run).
 */
export function commandSeconds(command: 'postgres' | 'nats-server'): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== command) continue;
    } catch {
      continue; // ended meanwhile
    }
    total += cpuSeconds(Number(pid), { reapedChildren: true }) ?? 0;
  }
  return total;
}

/** CPU seconds PostgreSQL's processes have used so far (see commandSeconds). */
export const postgresSeconds = (): number => commandSeconds('postgres');

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
/** BENCH_NODE_EXTRA: more Node options for the apps a bench starts, to look inside them (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`). */
const NODE_EXTRA = process.env.BENCH_NODE_EXTRA?.split(' ').filter(Boolean) ?? [];
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * Apps of a bench's own, in production mode as npm start runs them, with their own
 * databases (`sw_bench_<name>_<id>_*`) and bus prefix: `start` runs one compiled app with
 * `env` and what is given, and npm start's Node settings (APP_NODE_ARGS); `stop` ends them
 * and removes the databases of `services` and the bus streams.
 */
export function benchApps(name: string, urls: Record<string, string>) {
  const id = randomBytes(4).toString('hex');
  const dbPrefix = `sw_bench_${name}_${id}_`;
  const busPrefix = `b${name}${id}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL,
    NATS_URL,
    DB_PREFIX: dbPrefix,
    BUS_PREFIX: busPrefix,
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    HOST: '127.0.0.1',
    ...urls,
  };
  const children: ChildProcess[] = [];
  return {
    env,
    databaseUrl: DATABASE_URL,
    database: (service: string) => databaseName({ DB_PREFIX: dbPrefix } as never, service),
    start(script: string, extra: Record<string, string>): ChildProcess {
      const child = startProcess(script, { ...env, ...extra }, [...APP_NODE_ARGS, ...NODE_EXTRA]);
      children.push(child);
      return child;
    },
    async stop(services: string[]): Promise<void> {
      await stopProcesses(children);
      for (const service of services)
        await dropDatabase(DATABASE_URL, databaseName({ DB_PREFIX: dbPrefix } as never, service)).catch(() => undefined);
      await deleteStreamsOfPrefix(NATS_URL, busPrefix).catch(() => undefined);
    },
  };
}
