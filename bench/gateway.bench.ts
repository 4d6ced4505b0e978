/**
 * npm run bench (gateway): an authenticated GET /api/auth/user through the gateway (cookie,
 * session check, proxy) beside the same call made directly to identity (Bearer token), in
 * the same run, alternating (goal: through the gateway ≥ 0.7× direct). Its own identity
 * database and bus prefix, removed afterwards.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { dropDatabase } from '@sleepweave/service-kit';
import { Pool } from 'undici';
import { newRegistration } from '../services/identity/src/test/helpers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 16;
const APP_URL = 'http://localhost:3000';
const root = fileURLToPath(new URL('..', import.meta.url));

/** Requests per second over SECONDS with CONCURRENCY requests in flight; every answer must be a 200. */
async function throughput(origin: string, path: string, headers: Record<string, string>): Promise<number> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  let done = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const response = await pool.request({ method: 'GET', path, headers });
        await response.body.dump();
        if (response.statusCode !== 200) throw new Error(`${origin}${path}: ${response.statusCode}`);
        done += 1;
      }
    }),
  );
  await pool.close();
  return done / SECONDS;
}

// identity and the gateway each in a process of its own, as npm start runs them (in this
// process they would share one thread with each other and with the load).
const id = randomBytes(4).toString('hex');
const base = 20000 + Math.floor(Math.random() * 20000);
const identityUrl = `http://127.0.0.1:${base + 1}`;
const gatewayUrl = `http://127.0.0.1:${base}`;
const env = {
  ...process.env,
  DB_PREFIX: `sw_bench_gw_${id}_`,
  BUS_PREFIX: `bgw${id}`,
  LOG_LEVEL: 'warn',
  APP_URL,
  IDENTITY_URL: identityUrl,
  WEB_DIST: '/nonexistent',
};
const children = [
  spawn(process.execPath, ['--import', 'tsx', 'services/identity/src/server.ts'], {
    cwd: root,
    env: { ...env, PORT: String(base + 1), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
  spawn(process.execPath, ['--import', 'tsx', 'gateway/src/server.ts'], {
    cwd: root,
    env: { ...env, PORT: String(base), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
];
for (const url of [identityUrl, gatewayUrl]) {
  for (let tries = 0; ; tries++) {
    // answering at all is enough: without the other services its health says degraded
    const up = await fetch(`${url}/health`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (tries > 600) throw new Error(`${url} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

try {
  const registered = await fetch(`${gatewayUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: APP_URL },
    body: JSON.stringify(newRegistration()),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const setCookies = registered.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const cookies = setCookies.join('; ');
  const accessToken = setCookies.find((c) => c.startsWith('sw_access='))!.slice('sw_access='.length);

  const direct: number[] = [];
  const through: number[] = [];
  await throughput(identityUrl, '/api/auth/user', { authorization: `Bearer ${accessToken}` }); // warm-up
  await throughput(gatewayUrl, '/api/auth/user', { cookie: cookies });
  for (let round = 0; round < ROUNDS; round++) {
    direct.push(await throughput(identityUrl, '/api/auth/user', { authorization: `Bearer ${accessToken}` }));
    through.push(await throughput(gatewayUrl, '/api/auth/user', { cookie: cookies }));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratios = direct.map((d, i) => through[i]! / d);
  console.log(`gateway: GET /api/auth/user, ${CONCURRENCY} in flight, ${ROUNDS} alternating rounds of ${SECONDS} s`);
  console.log(`  direct to identity (floor): ${median(direct).toFixed(0)} req/s; through the gateway: ${median(through).toFixed(0)} req/s`);
  console.log(`  ratio gateway / direct: ${median(ratios).toFixed(2)}× (goal ≥ 0.7×)`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
  await dropDatabase(DATABASE_URL, `${env.DB_PREFIX}identity`);
  await deleteStreamsOfPrefix(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', env.BUS_PREFIX);
}
