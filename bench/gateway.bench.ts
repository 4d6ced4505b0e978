/**
 * npm run bench (gateway): an authenticated GET /api/auth/user through the gateway (cookie,
 * session check, proxy) beside the same call made directly to identity (the same access
 * token, as the Bearer header the gateway would send), in the same run, both compiled as npm
 * start runs them (goal: through the gateway ≥ 0.7× direct). The same client (this process,
 * undici), the same concurrency; short rounds in pairs, alternating which goes first (ABBA),
 * so that a pair sees the same load from whatever else runs on the machine; the figure is the
 * median of the pairs' ratios. After each pair, a round through a bare proxy (node:http and
 * undici, nothing checked, no header added or filtered: the least any proxy in Node costs on
 * this machine), its ratio to the pair's direct round beside the gateway's. Then the CPU time
 * each process spent per request (from /proc; PostgreSQL's processes together): where the
 * time goes. Its own identity database and bus prefix, removed afterwards.
 */
import { benchApps, buildApps, cpuSeconds, median, postgresSeconds, signUp, startFloorScript, throughput, waitFor } from './support.ts';

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
const bareUrl = `http://127.0.0.1:${base + 2}`;
const apps = benchApps('gw', { APP_URL, IDENTITY_URL: identityUrl, WEB_DIST: '/nonexistent' });
const identity = apps.start('services/identity/dist/server.js', { PORT: String(base + 1) });
const gateway = apps.start('gateway/dist/server.js', { PORT: String(base) });
let bare: ReturnType<typeof startFloorScript> | undefined;

/** Requests per second of one round, and the CPU µs each process spent per request in it. */
async function round(url: string, headers: Record<string, string>) {
  const pids = { gateway: gateway.pid, identity: identity.pid, load: process.pid, bare: bare?.pid };
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const postgresBefore = postgresSeconds();
  const rate = await throughput(url, get(headers), load);
  const perRequest = (name: keyof typeof pids) => {
    const [start, end] = [before[name], cpuSeconds(pids[name])];
    return start === null || start === undefined || end === null ? Number.NaN : ((end - start) * 1e6) / (rate * SECONDS);
  };
  const postgres = ((postgresSeconds() - postgresBefore) * 1e6) / (rate * SECONDS);
  return {
    rate,
    gateway: perRequest('gateway'),
    identity: perRequest('identity'),
    load: perRequest('load'),
    bare: perRequest('bare'),
    postgres,
  };
}

try {
  await waitFor(`${identityUrl}/health`);
  await waitFor(`${gatewayUrl}/health`);
  const { accessToken, cookies } = await signUp(gatewayUrl, { origin: APP_URL });
  bare = startFloorScript(
    `
    import { createServer } from 'node:http';
    import { Pool } from 'undici';
    const identity = new Pool(${JSON.stringify(identityUrl)}, { connections: 32 });
    const headers = { authorization: 'Bearer ' + process.env.ACCESS_TOKEN };
    createServer(async (request, response) => {
      const answer = await identity.request({ method: request.method, path: request.url, headers });
      const body = Buffer.from(await answer.body.arrayBuffer());
      response.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'], 'content-length': body.length });
      response.end(body);
    }).listen(${base + 2}, '127.0.0.1');
  `,
    { ...process.env, ACCESS_TOKEN: accessToken },
  );
  await waitFor(bareUrl);
  const direct = () => round(identityUrl, { authorization: `Bearer ${accessToken}` });
  const through = () => round(gatewayUrl, { cookie: cookies });
  const viaBare = () => round(bareUrl, {});

  await direct(); // warm-up
  await through();
  await viaBare();
  type Round = Awaited<ReturnType<typeof round>>;
  const pairs: { direct: Round; through: Round; bare: Round }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let d: Round, t: Round;
    if (i % 2 === 0) {
      d = await direct();
      t = await through();
    } else {
      t = await through();
      d = await direct();
    }
    pairs.push({ direct: d, through: t, bare: await viaBare() });
  }
  const med = (pick: (pair: (typeof pairs)[number]) => number) => median(pairs.map(pick)).toFixed(0);
  const ratio = (pick: (pair: (typeof pairs)[number]) => number) => median(pairs.map(pick)).toFixed(2);
  console.log(`gateway: GET /api/auth/user, ${CONCURRENCY} in flight, ${ROUNDS} pairs of ${SECONDS} s rounds (ABBA)`);
  console.log(
    `  direct to identity (floor): ${med((p) => p.direct.rate)} req/s; through the gateway: ${med((p) => p.through.rate)} req/s; ` +
      `through a bare proxy: ${med((p) => p.bare.rate)} req/s`,
  );
  console.log(
    `  ratio gateway / direct: ${ratio((p) => p.through.rate / p.direct.rate)}× (goal ≥ 0.7×); ` +
      `bare proxy / direct: ${ratio((p) => p.bare.rate / p.direct.rate)}× (what any proxy reaches here)`,
  );
  console.log(
    `  CPU µs per request (medians): gateway ${med((p) => p.through.gateway)}, bare proxy ${med((p) => p.bare.bare)}; ` +
      `identity ${med((p) => p.direct.identity)} direct, ${med((p) => p.through.identity)} through the gateway, ${med((p) => p.bare.identity)} through the bare proxy; ` +
      `PostgreSQL ${med((p) => p.direct.postgres)}, ${med((p) => p.through.postgres)}, ${med((p) => p.bare.postgres)}; ` +
      `the load (this process) ${med((p) => p.direct.load)}, ${med((p) => p.through.load)}, ${med((p) => p.bare.load)}`,
  );
} finally {
  bare?.stdin?.end();
  await apps.stop(['identity']);
}
