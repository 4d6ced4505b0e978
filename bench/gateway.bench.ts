/**
 * npm run bench (gateway): an authenticated GET /api/auth/user through the gateway (cookie,
 * session check, proxy) beside the same call made directly to identity (Bearer token), in
 * the same run, alternating (goal: through the gateway ≥ 0.7× direct), both compiled as
 * npm start runs them. Its own identity database and bus prefix, removed afterwards.
 */
import { benchApps, buildApps, median, signUp, throughput, waitFor } from './support.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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
apps.start('services/identity/dist/server.js', { PORT: String(base + 1) });
apps.start('gateway/dist/server.js', { PORT: String(base) });

try {
  await waitFor(`${identityUrl}/health`);
  await waitFor(`${gatewayUrl}/health`);
  const { accessToken, cookies } = await signUp(gatewayUrl, { origin: APP_URL });

  const direct: number[] = [];
  const through: number[] = [];
  await throughput(identityUrl, get({ authorization: `Bearer ${accessToken}` }), load); // warm-up
  await throughput(gatewayUrl, get({ cookie: cookies }), load);
  for (let round = 0; round < ROUNDS; round++) {
    direct.push(await throughput(identityUrl, get({ authorization: `Bearer ${accessToken}` }), load));
    through.push(await throughput(gatewayUrl, get({ cookie: cookies }), load));
  }
  const ratios = direct.map((d, i) => through[i]! / d);
  console.log(`gateway: GET /api/auth/user, ${CONCURRENCY} in flight, ${ROUNDS} alternating rounds of ${SECONDS} s`);
  console.log(`  direct to identity (floor): ${median(direct).toFixed(0)} req/s; through the gateway: ${median(through).toFixed(0)} req/s`);
  console.log(`  ratio gateway / direct: ${median(ratios).toFixed(2)}× (goal ≥ 0.7×)`);
} finally {
  await apps.stop(['identity']);
}
