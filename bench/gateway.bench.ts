/**
 * npm run bench (gateway): an authenticated GET /api/auth/user through the gateway (cookie,
 * session check, proxy) beside the same call made directly to identity (the same access
 * token, as the Bearer header the gateway would send), in the same run, both compiled as npm
 * start runs them (goal: through the gateway ≥ 0.7× direct). The same client (this process,
 * undici), the same concurrency; short rounds in pairs, alternating which goes first (ABBA),
 * so that a pair sees the same load from whatever else runs on the machine; the figure is the
 * median of the pairs' ratios. Beside it, the CPU time each process spent per request (from
 * /proc): where the time goes. Its own identity database and bus prefix, removed afterwards.
 */
import { benchApps, buildApps, cpuSeconds, median, signUp, throughput, waitFor } from './support.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CONCURRENCY = 16;
const APP_URL = 'http://localhost:3000';
const get = (headers: Record<string, string>) => ({ method: 'GET' as const, path: '/api/auth/user', headers });
const load = { seconds: SECONDS, concurrency: CONCURRENCY, status: 200 };

// identity and the gateway each in a process of its own, compiled, as npm start runs them
// (in this process they would share one thread with each other and with the load).
buildApps();
const base = 20000 + Math.floor(Math.random() * 20000);
const identityUrl = `http://127.0.0.1:${base + 1}`;
const gatewayUrl = `http://127.0.0.1:${base}`;
const apps = benchApps('gw', { APP_URL, IDENTITY_URL: identityUrl, WEB_DIST: '/nonexistent' });
const identity = apps.start('services/identity/dist/server.js', { PORT: String(base + 1) });
const gateway = apps.start('gateway/dist/server.js', { PORT: String(base) });

/** Requests per second of one round, and the CPU µs each process spent per request in it. */
async function round(url: string, headers: Record<string, string>) {
  const pids = { gateway: gateway.pid, identity: identity.pid, load: process.pid };
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const rate = await throughput(url, get(headers), load);
  const perRequest = (name: keyof typeof pids) => {
    const [start, end] = [before[name], cpuSeconds(pids[name])];
    return start === null || start === undefined || end === null ? Number.NaN : ((end - start) * 1e6) / (rate * SECONDS);
  };
  return { rate, gateway: perRequest('gateway'), identity: perRequest('identity'), load: perRequest('load') };
}

try {
  await waitFor(`${identityUrl}/health`);
  await waitFor(`${gatewayUrl}/health`);
  const { accessToken, cookies } = await signUp(gatewayUrl, { origin: APP_URL });
  const direct = () => round(identityUrl, { authorization: `Bearer ${accessToken}` });
  const through = () => round(gatewayUrl, { cookie: cookies });

  await direct(); // warm-up
  await through();
  const pairs: { direct: Awaited<ReturnType<typeof round>>; through: Awaited<ReturnType<typeof round>> }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      const d = await direct();
      pairs.push({ direct: d, through: await through() });
    } else {
      const t = await through();
      pairs.push({ direct: await direct(), through: t });
    }
  }
  const med = (pick: (pair: (typeof pairs)[number]) => number) => median(pairs.map(pick)).toFixed(0);
  console.log(`gateway: GET /api/auth/user, ${CONCURRENCY} in flight, ${ROUNDS} pairs of ${SECONDS} s rounds (ABBA)`);
  console.log(`  direct to identity (floor): ${med((p) => p.direct.rate)} req/s; through the gateway: ${med((p) => p.through.rate)} req/s`);
  console.log(`  ratio gateway / direct: ${median(pairs.map((p) => p.through.rate / p.direct.rate)).toFixed(2)}× (goal ≥ 0.7×)`);
  console.log(
    `  CPU µs per request (medians): gateway ${med((p) => p.through.gateway)}; identity ${med((p) => p.direct.identity)} direct, ` +
      `${med((p) => p.through.identity)} through the gateway; the load (this process) ${med((p) => p.direct.load)} direct, ${med((p) => p.through.load)} through`,
  );
} finally {
  await apps.stop(['identity']);
}
