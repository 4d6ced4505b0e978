/**
 * npm run bench (page load): Lighthouse's mobile performance score (its default mobile
 * run, as PageSpeed Insights: a Moto G Power's screen, simulated slow 4G and a 4× slower
 * CPU) of /auth (signed out), /dashboard and /sleep/dashboard (signed in: a participant
 * three weeks into her study, with two weeks of nights logged), served by the gateway.
 * Printed beside the goal (0.9) and the floor: the same build in the same run behind a
 * bare static server (Fastify + @fastify/static sending the build's brotli/gzip copies,
 * /assets immutable for a year, the API passed through to the same gateway), and that
 * server again with the security headers the gateway sends on its pages (CSP,
 * Cross-Origin-Opener-Policy ...): COOP costs /sleep/dashboard its TBT (docs/performance.md). Each
 * figure is the median of RUNS (default 3) runs, the three servers taken in turn; the
 * metrics behind each score (FCP, LCP, TBT, CLS, Speed Index) are printed with it.
 *
 * It starts its own system (infra/services.mjs under the supervisor, the apps compiled as
 * npm start runs them; free ports, or PORT and SERVICE_PORT_BASE) with its own databases
 * and bus prefix, removed afterwards, and Chromium from CHROME_PATH (default
 * /usr/bin/chromium), headless. Needs a web build
 * (`npm run build`; WEB_DIST to use another).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { calendarDateIn, consentText } from '@sleepweave/contracts';
import { createEventStore } from '@sleepweave/event-store';
import { connectDatabase, databaseName, dropDatabase } from '@sleepweave/service-kit';
import { freePort, freePortRange } from '@sleepweave/test-servers';
import Fastify from 'fastify';
import lighthouse, { type Flags } from 'lighthouse';
import { presentServices, SERVICE_PORT_OFFSETS, systemCommands } from '../infra/services.mjs';
import { supervise } from '../infra/supervisor.mjs';
import { startEndingWithBench } from './support.ts';
import { consentDecider } from '../services/study/src/consents/business-logic.ts';
import { consentStreamId } from '../services/study/src/consents/consent.ts';
import { studyProjections } from '../services/study/src/context.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const WEB_DIST = process.env.WEB_DIST ?? join(root, 'web/dist');
const RUNS = Number(process.env.RUNS ?? 3);
/** A folder to keep every run's Lighthouse report in (JSON), to see what a score is made of. */
const REPORTS = process.env.LIGHTHOUSE_REPORTS;
const GOAL = 0.9;
const TIMEZONE = 'Europe/London';

if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error(`no web build in ${WEB_DIST}: run npm run build`);
if (!existsSync(CHROME_PATH)) throw new Error(`no Chromium at ${CHROME_PATH}: set CHROME_PATH`);

interface Page {
  path: string;
  signedIn: boolean;
}
/** LIGHTHOUSE_PAGES: some of them only (comma-separated paths), to look at one page. */
const ONLY = process.env.LIGHTHOUSE_PAGES?.split(',').map((path) => path.trim());
const PAGES: Page[] = [
  { path: '/auth', signedIn: false },
  { path: '/dashboard', signedIn: true },
  { path: '/sleep/dashboard', signedIn: true },
].filter((page) => !ONLY || ONLY.includes(page.path));
const unknown = ONLY?.filter((path) => !PAGES.some((page) => page.path === path)) ?? [];
if (unknown.length > 0 || PAGES.length === 0) {
  throw new Error(`LIGHTHOUSE_PAGES: no such page ${JSON.stringify(unknown)} (the bench measures /auth, /dashboard, /sleep/dashboard)`);
}

interface Run {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  /** Lighthouse's measure of this machine's speed (a desktop ~1500+; below ~800 the TBT it simulates overstates). */
  benchmarkIndex: number;
}

// ---------------------------------------------------------------------------------------
// The system

const logDir = await mkdtemp(join(tmpdir(), 'sw-lighthouse-'));
const logFile = join(logDir, 'processes.log');
const out = createWriteStream(logFile);
const suffix = randomBytes(3).toString('hex');
const env: Record<string, string> = {
  NODE_ENV: 'production',
  DATABASE_URL,
  NATS_URL,
  DB_PREFIX: process.env.DB_PREFIX ?? `sw_lighthouse_${suffix}_`,
  BUS_PREFIX: process.env.BUS_PREFIX ?? `lighthouse${suffix}`,
  INTERNAL_TOKEN: randomBytes(24).toString('hex'),
  LOG_FORMAT: 'json',
  LOG_LEVEL: 'warn',
  MAIL_OUTBOX_DIR: join(logDir, 'outbox'),
  WEB_DIST,
  // One session for the whole bench: no renewal (and refresh-token rotation) under way.
  ACCESS_TOKEN_TTL_SECONDS: '3600',
};
const gatewayPort = Number(process.env.PORT ?? (await freePort()));
const base = Number(process.env.SERVICE_PORT_BASE ?? (await freePortRange(Math.max(...Object.values(SERVICE_PORT_OFFSETS)) + 1)));
const gateway = `http://localhost:${gatewayPort}`;
env.APP_URL = gateway;
// The apps compiled, as npm start runs them.
if (spawnSync(process.execPath, ['infra/build-apps.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('build failed');
const supervisor = supervise(systemCommands({ base, gatewayPort, env, compiled: true }), { cwd: root, out, color: false });
let floor: Awaited<ReturnType<typeof startFloor>> | null = null;
let securedFloor: Awaited<ReturnType<typeof startFloor>> | null = null;

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

async function waitForSystem(): Promise<void> {
  const urls = [...presentServices().map(({ offset }) => `http://127.0.0.1:${base + offset}/health`), `${gateway}/health`];
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await Promise.all(urls.map(healthy));
    if (up.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error(`the system did not start within 120 s (see ${logFile})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The headers of a page as the gateway sends them but those of the transfer itself
 * (length, type, caching, dates): its security headers (CSP, Cross-Origin-Opener-Policy,
 * Origin-Agent-Cluster ...), for the second floor.
 */
async function gatewayPageHeaders(): Promise<Record<string, string>> {
  const response = await fetch(`${gateway}/auth`);
  await response.arrayBuffer();
  const transfer = new Set([
    'content-length',
    'content-type',
    'content-encoding',
    'cache-control',
    'etag',
    'last-modified',
    'accept-ranges',
    'date',
  ]);
  transfer.add('connection').add('keep-alive').add('vary').add('x-correlation-id');
  return Object.fromEntries([...response.headers].filter(([name]) => !transfer.has(name)));
}

/**
 * The floor: the same build behind a bare static server, the API passed to the gateway;
 * with `pageHeaders`, its pages (not the assets or the API) carry them too.
 */
async function startFloor(pageHeaders: Record<string, string> = {}) {
  const app = Fastify({ logger: false });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/assets/')) reply.headers(pageHeaders);
    return payload;
  });
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(replyFrom, { base: gateway });
  await app.register(fastifyStatic, {
    root: WEB_DIST,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, filePath) => {
      res.setHeader('cache-control', filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.all('/api/*', (request, reply) => reply.from(request.url));
  app.setNotFoundHandler((request, reply) =>
    request.method === 'GET' ? reply.header('cache-control', 'no-cache').sendFile('index.html') : reply.status(404).send(),
  );
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { app, url: `http://localhost:${port}` };
}

// ---------------------------------------------------------------------------------------
// Her account

async function call(method: string, path: string, body: unknown, cookie?: string): Promise<Response> {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: gateway, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** A participant three weeks into her study, her last 14 nights logged: her session's cookies. */
async function participant(): Promise<string> {
  const response = await call('POST', '/api/register', {
    email: `lighthouse-${randomUUID()}@example.com`,
    password: 'gentle-nights-42',
    confirmPassword: 'gentle-nights-42',
    firstName: 'Maria',
    lastName: 'Bench',
    dateOfBirth: '1974-05-12',
    timezone: TIMEZONE,
    hormonalStage: 'Perimenopause',
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
  const { user } = (await response.json()) as { user: { id: string } };

  // Her consent three weeks ago, recorded in the study's event store as the service records
  // one (the API only consents today).
  const sql = connectDatabase(DATABASE_URL, databaseName({ DB_PREFIX: env.DB_PREFIX } as never, 'study'), { max: 1 });
  try {
    await createEventStore(sql, { projections: studyProjections }).handle(consentStreamId(user.id), consentDecider, {
      type: 'GiveConsent',
      data: {
        consentId: randomUUID(),
        userId: user.id,
        consentText: consentText(),
        consentVersion: '1.0',
        ipAddress: null,
        timezone: TIMEZONE,
        now: new Date(Date.now() - 21 * 86_400_000),
      },
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
  for (let daysAgo = 14; daysAgo >= 1; daysAgo--) {
    const date = calendarDateIn(TIMEZONE, new Date(Date.now() - daysAgo * 86_400_000));
    await call('POST', '/api/sleep/log', { date, ...night(daysAgo) }, cookie);
  }
  return cookie;
}

function night(n: number) {
  return {
    sleepwearMaterial: n % 2 ? '100% Polyester' : '100% Cotton',
    sleepScore: 70 + (n % 5) * 4,
    totalSleepMinutes: 400 + n * 5,
    sleepEfficiency: 85 + (n % 4),
    timeInBedMinutes: 480,
    restingHr: 55 + (n % 3),
    sleepQuality110: 5 + (n % 4),
    morningMood: 'Refreshed',
    heatWave: n % 3 === 0,
    heatWakeups: n % 3,
  };
}

// ---------------------------------------------------------------------------------------
// Lighthouse

class LighthouseRuntimeError extends Error {}

/** A fresh headless Chromium (its own profile) with DevTools on a free port. */
async function launchChromium(): Promise<{ port: number; process: ChildProcess; profile: string }> {
  const port = await freePort();
  const profile = await mkdtemp(join(tmpdir(), 'sw-lighthouse-chromium-'));
  // ends with this bench, even killed outright
  const child = startEndingWithBench(CHROME_PATH, [
    '--headless=new',
    '--no-sandbox',
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    '--no-first-run',
    'about:blank',
  ]);
  const deadline = Date.now() + 20_000;
  while (!(await healthy(`http://127.0.0.1:${port}/json/version`))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`Chromium at ${CHROME_PATH} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port, process: child, profile };
}

async function measure(origin: string, page: Page, cookie: string, name: string): Promise<Run> {
  const chromium = await launchChromium();
  try {
    const flags: Flags = {
      port: chromium.port,
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(page.signedIn ? { extraHeaders: { cookie } } : {}),
    };
    const result = await lighthouse(`${origin}${page.path}`, flags);
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${origin}${page.path}`);
    if (lhr.runtimeError) throw new LighthouseRuntimeError(`Lighthouse on ${origin}${page.path}: ${lhr.runtimeError.message}`);
    // A signed-in page that fell back to /auth would measure the wrong screen.
    const shown = new URL(lhr.finalDisplayedUrl).pathname;
    if (shown !== page.path) throw new Error(`${origin}${page.path} ended on ${shown}`);
    if (REPORTS) {
      await mkdir(REPORTS, { recursive: true });
      await writeFile(join(REPORTS, `${name}${page.path.replaceAll('/', '-')}.json`), JSON.stringify(lhr, null, 1));
    }
    const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      score: lhr.categories.performance?.score ?? NaN,
      fcp: value('first-contentful-paint'),
      lcp: value('largest-contentful-paint'),
      tbt: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      si: value('speed-index'),
      benchmarkIndex: lhr.environment.benchmarkIndex,
    };
  } finally {
    // its keeper kills it and exits once it has
    const exited = new Promise((resolve) => (chromium.process.exitCode === null ? chromium.process.once('exit', resolve) : resolve(null)));
    chromium.process.stdin!.end();
    await exited;
    await rm(chromium.profile, { recursive: true, force: true });
  }
}

/** Lighthouse now and then fails to record a trace on a busy machine (NO_NAVSTART ...): two more tries. */
async function measureWithRetry(origin: string, page: Page, cookie: string, name: string): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(origin, page, cookie, name);
    } catch (error) {
      if (attempt === 3 || !(error instanceof LighthouseRuntimeError)) throw error;
      console.error(`(retrying ${origin}${page.path}: ${error.message})`);
    }
  }
}

function median(runs: Run[]): Run {
  const pick = (key: keyof Run) => {
    const sorted = runs.map((run) => run[key]).sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  return {
    score: pick('score'),
    fcp: pick('fcp'),
    lcp: pick('lcp'),
    tbt: pick('tbt'),
    cls: pick('cls'),
    si: pick('si'),
    benchmarkIndex: pick('benchmarkIndex'),
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const describe = (run: Run) =>
  `${run.score.toFixed(2)} (FCP ${seconds(run.fcp)}, LCP ${seconds(run.lcp)}, TBT ${Math.round(run.tbt)} ms, CLS ${run.cls.toFixed(3)}, SI ${seconds(run.si)})`;

let failed = false;
try {
  await waitForSystem();
  floor = await startFloor();
  securedFloor = await startFloor(await gatewayPageHeaders());
  const cookie = await participant();
  const results = new Map<string, { gateway: Run[]; floor: Run[]; secured: Run[] }>(
    PAGES.map((page) => [page.path, { gateway: [], floor: [], secured: [] }]),
  );
  for (let run = 0; run < RUNS; run++) {
    for (const page of PAGES) {
      const entry = results.get(page.path)!;
      entry.gateway.push(await measureWithRetry(gateway, page, cookie, `gateway-${run + 1}`));
      entry.floor.push(await measureWithRetry(floor.url, page, cookie, `floor-${run + 1}`));
      entry.secured.push(await measureWithRetry(securedFloor.url, page, cookie, `secured-floor-${run + 1}`));
    }
  }
  const all = [...results.values()].flatMap((entry) => [...entry.gateway, ...entry.floor, ...entry.secured]);
  console.log(
    `lighthouse: this machine's benchmark index ${Math.round(median(all).benchmarkIndex)} (Lighthouse's reference is a ~1000+ machine; a busy or slow one inflates TBT)`,
  );
  for (const page of PAGES) {
    const entry = results.get(page.path)!;
    const served = median(entry.gateway);
    console.log(
      `lighthouse ${page.path} (mobile, median of ${RUNS}): ${describe(served)} (goal ≥ ${GOAL}); floor (bare static server): ${describe(median(entry.floor))}; ` +
        `the same with the gateway's security headers on its pages: ${describe(median(entry.secured))}`,
    );
  }
} catch (error) {
  failed = true;
  console.error(error);
  console.error(`(system logs: ${logFile})`);
} finally {
  await floor?.app.close();
  await securedFloor?.app.close();
  await supervisor.stop();
  await new Promise((resolve) => out.end(resolve));
  for (const { name } of presentServices()) {
    await dropDatabase(DATABASE_URL, databaseName({ DB_PREFIX: env.DB_PREFIX } as never, name)).catch(() => undefined);
  }
  await deleteStreamsOfPrefix(NATS_URL, env.BUS_PREFIX!).catch(() => undefined);
  if (!failed) await rm(logDir, { recursive: true, force: true });
}
if (failed) process.exit(1);
