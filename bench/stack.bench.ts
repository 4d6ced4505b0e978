/**
 * npm run bench (memory and start): the whole system as `npm start` runs it
 * (infra/run-local.mjs: the apps compiled, then supervised), started START_ROUNDS (≥ 3) times:
 * first on empty databases (the migrations make every table), then with the research
 * service's nightly run due (its time set to 00:00 UTC), then again with that run done.
 *
 * - Start: from launching run-local to the gateway's first 200 (GET /) and to every
 *   service's /health saying ok, median of the starts after the second (goal: ≤ 5 s after
 *   the first build; the first start is printed apart, as it may compile everything and
 *   migrates; the second makes the research run while it starts).
 * - Memory: the RSS of every process of the system (the supervisor and what it runs),
 *   idle: sampled once a second for SAMPLES seconds after IDLE_SECONDS of quiet following
 *   its start, median of the totals (goal: ≤ 600 MB), beside its floor: a bare Fastify
 *   process (one route, nothing else) measured the same way, times the number of apps.
 *   Read after each kind of start: the second, whose research service made the day's
 *   nightly run, is what a system shows idle on any day after its first night (the export's
 *   libraries stay loaded); the last, with that run done already, a system restarted since
 *   its last run; the first, on empty databases, a new system until its first restart (the
 *   migrations' work leaves its trace in each process).
 *   RSS counts the pages a process shares with the others (Node's binary and libraries) in
 *   full in each; the proportional set size (PSS), which divides them among the processes,
 *   is printed beside it: summed, it is what the system holds (other Node processes on the
 *   machine take their share of the common pages, so it is lower while they run).
 *
 * Its own ports, databases and bus prefix, removed afterwards. Needs a web build
 * (`npm run build`; WEB_DIST to use another).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { connectDatabase, databaseName, dropDatabase, STOP_ON_STDIN_END } from '@sleepweave/service-kit';
import { freePort, freePortRange } from '@sleepweave/test-servers';
import { presentServices, SERVICE_PORT_OFFSETS } from '../infra/services.mjs';
import { startFloorScript } from './support.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const WEB_DIST = process.env.WEB_DIST ?? join(root, 'web/dist');
const START_ROUNDS = Math.max(3, Number(process.env.START_ROUNDS ?? 4));
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 10);
const SAMPLES = Number(process.env.SAMPLES ?? 5);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error(`no web build in ${WEB_DIST}: run npm run build`);

interface ProcessMemory {
  pid: number;
  name: string;
  /** Resident set size (bytes), counting every shared page (Node's binary and libraries) in full. */
  rss: number;
  /** Proportional set size (bytes): each shared page divided among the processes that map it. */
  pss: number;
}

/** A process and its descendants, read from /proc. */
function processTree(rootPid: number): ProcessMemory[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: ProcessMemory[] = [];
  const visit = (pid: number) => {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const script = args.find((arg) => arg.endsWith('.js') || arg.endsWith('.mjs')) ?? args[0] ?? '?';
      tree.push({ pid, name: script.replace(`${root}/`, ''), rss: kb('Rss'), pss: kb('Pss') });
    } catch {
      return;
    }
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(rootPid);
  return tree;
}

/** Medians over SAMPLES one-second samples of a process tree's total RSS and PSS, and the last sample. */
async function idleMemory(pid: number): Promise<{ rss: number; pss: number; processes: ProcessMemory[] }> {
  await sleep(IDLE_SECONDS * 1000);
  const rss: number[] = [];
  const pss: number[] = [];
  let last: ProcessMemory[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    last = processTree(pid);
    rss.push(last.reduce((sum, p) => sum + p.rss, 0));
    pss.push(last.reduce((sum, p) => sum + p.pss, 0));
    await sleep(1000);
  }
  return { rss: median(rss), pss: median(pss), processes: last };
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not within 120 s`);
    await sleep(25);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const suffix = randomBytes(3).toString('hex');
const DB_PREFIX = `sw_bench_stack_${suffix}_`;
const BUS_PREFIX = `bstack${suffix}`;
const gatewayPort = await freePort();
const base = await freePortRange(Math.max(...Object.values(SERVICE_PORT_OFFSETS)) + 1);
const gateway = `http://127.0.0.1:${gatewayPort}`;
const env = {
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL,
  NATS_URL,
  DB_PREFIX,
  BUS_PREFIX,
  PORT: String(gatewayPort),
  SERVICE_PORT_BASE: String(base),
  APP_URL: `http://localhost:${gatewayPort}`,
  INTERNAL_TOKEN: randomBytes(24).toString('hex'),
  WEB_DIST,
  // npm start's own logging (its supervisor pretty-prints the apps' info lines; +4 MiB in the
  // supervisor against LOG_FORMAT=json), into the stdout this bench ignores
  LOG_FORMAT: 'pretty',
  LOG_LEVEL: 'info',
  // from the second start on, the nightly research run is due (made at the second, done at
  // the later ones), as on any day but the first once the time of the nightly run has passed
  RESEARCH_EXPORT_TIMEZONE: 'UTC',
};
const healthUrls = [...presentServices().map(({ offset }) => `http://127.0.0.1:${base + offset}/health`), `${gateway}/health`];

/**
 * As if the system had been set up yesterday: the research database's migrations dated a day
 * back, so that today's nightly run (due since 00:00) is owed at the next start; a system set
 * up today owes none before tonight.
 */
async function madeYesterday(): Promise<void> {
  const sql = connectDatabase(DATABASE_URL, databaseName({ DB_PREFIX } as never, 'research-export'), { max: 1 });
  try {
    await sql`update schema_migrations set applied_at = applied_at - interval '1 day'`;
  } finally {
    await sql.end();
  }
}

/** Waits for the research service's first run to finish (the nightly run it makes at its second start). */
async function researchRunFinished(): Promise<void> {
  const sql = connectDatabase(DATABASE_URL, databaseName({ DB_PREFIX } as never, 'research-export'), { max: 1 });
  try {
    await until(async () => {
      const runs = await sql<{ status: string }[]>`select status from research_runs`.catch(() => []);
      if (runs.some((run) => run.status === 'failed')) throw new Error('the nightly research run failed');
      return runs.some((run) => run.status === 'finished');
    }, 'the nightly research run');
  } finally {
    await sql.end();
  }
}

let system: ChildProcess | null = null;
let floorProcess: ChildProcess | null = null;
try {
  const starts: { firstOk: number; healthy: number }[] = [];
  let fresh: Awaited<ReturnType<typeof idleMemory>> | null = null;
  let afterRun: Awaited<ReturnType<typeof idleMemory>> | null = null;
  let idle: Awaited<ReturnType<typeof idleMemory>> | null = null;
  for (let round = 0; round < START_ROUNDS; round++) {
    if (round === 1) await madeYesterday();
    const started = performance.now();
    // stdin a pipe, STOP_ON_STDIN_END: the system stops if this bench is killed
    system = spawn(process.execPath, ['infra/run-local.mjs'], {
      cwd: root,
      env: { ...env, RESEARCH_EXPORT_TIME: round === 0 ? 'off' : '00:00', [STOP_ON_STDIN_END]: '1' },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    await until(() => answers(`${gateway}/`), 'the gateway');
    const firstOk = performance.now() - started;
    await until(async () => (await Promise.all(healthUrls.map(answers))).every(Boolean), 'every service healthy');
    starts.push({ firstOk, healthy: performance.now() - started });
    if (round === 0) fresh = await idleMemory(system.pid!);
    if (round === 1) {
      await researchRunFinished();
      afterRun = await idleMemory(system.pid!);
    }
    if (round === START_ROUNDS - 1) idle = await idleMemory(system.pid!);
    await stop(system);
  }

  // The floor: a bare Fastify process with one route, measured the same way.
  const floorPort = await freePort();
  floorProcess = startFloorScript(
    `import Fastify from 'fastify'; const app = Fastify(); app.get('/', async () => ({ ok: true })); await app.listen({ port: ${floorPort}, host: '127.0.0.1' });`,
  );
  await until(() => answers(`http://127.0.0.1:${floorPort}/`), 'the bare Fastify process');
  const floor = await idleMemory(floorProcess.pid!);
  const apps = presentServices().length + 1;

  const [first, second, ...later] = starts;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`stack: npm start's system (run-local, compiled apps), ${START_ROUNDS} starts`);
  console.log(
    `  start to the first 200: ${seconds(median(later.map((s) => s.firstOk)))} (goal ≤ 5 s), every service healthy at ${seconds(median(later.map((s) => s.healthy)))}; the first start (may compile everything; migrations): ${seconds(first!.firstOk)}, the second (the research run at its start): ${seconds(second!.firstOk)}`,
  );
  const research = (memory: typeof idle) => mib(memory!.processes.find((p) => p.name.includes('research-export'))?.rss ?? 0);
  const perProcess = (memory: typeof idle) =>
    memory!.processes
      .map((p) => `${p.name.includes('run-local') ? 'supervisor' : p.name.replace(/^(services\/)?([^/]+)\/.*$/, '$2')} ${mib(p.rss)}`)
      .join(', ');
  console.log(
    `  idle RSS, whole system, after its nightly research run: ${mib(afterRun!.rss)} summed over its ${afterRun!.processes.length} processes (goal ≤ 600 MB), the research service ${research(afterRun)}`,
  );
  console.log(
    `  idle RSS, whole system, started again (that run done already): ${mib(idle!.rss)} (the research service ${research(idle)}); floor: a bare Fastify process ${mib(floor.rss)} × ${apps} apps = ${mib(floor.rss * apps)}`,
  );
  console.log(`  idle RSS, whole system, at its first start (empty databases, migrations made): ${mib(fresh!.rss)}`);
  console.log(`  RSS by process: after the run ${perProcess(afterRun)}; at the first start ${perProcess(fresh)}`);
  // the first process of the tree is npm start's supervisor (infra/run-local.mjs), which the container images do not run
  const [supervisor, ...appProcesses] = idle!.processes;
  console.log(
    `  of it, the ${appProcesses.length} apps alone (as the container images run them): ${mib(appProcesses.reduce((sum, p) => sum + p.rss, 0))}, and npm start's supervisor ${mib(supervisor!.rss)} (the last sample)`,
  );
  console.log(
    `  idle memory counting shared pages once (PSS summed): ${mib(idle!.pss)}; floor ${mib(floor.pss)} × ${apps} = ${mib(floor.pss * apps)} (RSS counts Node's binary and libraries, about 50 MB, in every process)`,
  );
  console.log(`  RSS / PSS: ${idle!.processes.map((p) => `${p.name} ${mib(p.rss)} / ${mib(p.pss)}`).join(', ')}`);
} finally {
  if (system) await stop(system);
  if (floorProcess) await stop(floorProcess);
  for (const { name } of presentServices()) {
    await dropDatabase(DATABASE_URL, databaseName({ DB_PREFIX } as never, name)).catch(() => undefined);
  }
  await deleteStreamsOfPrefix(NATS_URL, BUS_PREFIX).catch(() => undefined);
}
