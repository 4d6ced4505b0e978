/**
 * npm run bench (service): GET /api/sleep/log/:date (one night by key, Bearer token) made
 * directly to the study service, compiled and in production mode as `npm start` runs it,
 * beside its floor: a bare Fastify + postgres.js process running the same query on the same
 * database (prepared, the row sent as JSON, no schema, no auth), in the same run,
 * alternating (goal: the service ≥ 0.8× the floor). Its own databases and bus prefix,
 * removed afterwards.
 */
import type { ChildProcess } from 'node:child_process';
import { freePort } from '@sleepweave/test-servers';
import { SLEEP_LOG_SELECT } from '../services/study/src/sleep-logs/columns.ts';
import { benchApps, buildApps, median, signUp, sleep, startFloorScript, stopProcesses, throughput, waitFor } from './support.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 16;
const get = (path: string, headers: Record<string, string>) => ({ method: 'GET' as const, path, headers });
const load = { seconds: SECONDS, concurrency: CONCURRENCY, status: 200 };

// The apps as npm start runs them: compiled, each in a process of its own.
buildApps();
const [identityPort, studyPort, floorPort] = [await freePort(), await freePort(), await freePort()];
const identityUrl = `http://127.0.0.1:${identityPort}`;
const studyUrl = `http://127.0.0.1:${studyPort}`;
const floorUrl = `http://127.0.0.1:${floorPort}`;
const apps = benchApps('svc', { IDENTITY_URL: identityUrl, STUDY_URL: studyUrl });
const children: ChildProcess[] = [];

try {
  apps.start('services/identity/dist/server.js', { PORT: String(identityPort) });
  apps.start('services/study/dist/server.js', { PORT: String(studyPort) });
  await waitFor(`${identityUrl}/health`);
  await waitFor(`${studyUrl}/health`);

  const { userId, accessToken } = await signUp(identityUrl);
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  // The study learns of her registration from the bus: consent once it has.
  let consent: Response;
  for (let tries = 0; ; tries++) {
    consent = await fetch(`${studyUrl}/api/sleep/consent`, { method: 'POST', headers, body: '{}' });
    if (consent.status === 201 || tries > 100) break;
    await sleep(100);
  }
  if (consent.status !== 201) throw new Error(`consent: ${consent.status} ${await consent.text()}`);
  const { studyStartDate: date } = (await consent.json()) as { studyStartDate: string };
  const night = {
    date,
    sleepwearMaterial: '100% Polyester',
    sleepScore: 82,
    totalSleepMinutes: 452,
    sleepEfficiency: 91.5,
    timeInBedMinutes: 500,
    restingHr: 56,
    remMinutes: 95,
    deepMinutes: 70,
    avgHrv: 41.5,
    morningMood: 'Refreshed',
    dreamRecall: true,
    heatWave: true,
    heatWakeups: 2,
    comments: 'Hot flash around 3am',
  };
  const logged = await fetch(`${studyUrl}/api/sleep/log`, { method: 'POST', headers, body: JSON.stringify(night) });
  if (logged.status !== 201) throw new Error(`log: ${logged.status} ${await logged.text()}`);

  // The floor: the same query (services/study/src/sleep-logs/queries.ts), prepared, in a bare server.
  const query = `select ${SLEEP_LOG_SELECT} from sleep_logs where user_id = $1 and date = $2`;
  const floorScript = `
    import Fastify from 'fastify';
    import postgres from 'postgres';
    const sql = postgres(process.env.FLOOR_DATABASE_URL, { max: 10 });
    const app = Fastify();
    app.get('/api/sleep/log/:date', async (request, reply) => {
      const [row] = await sql.unsafe(process.env.FLOOR_QUERY, [process.env.FLOOR_USER_ID, request.params.date], { prepare: true });
      if (!row) return reply.status(404).send({ error: 'not_found' });
      return row;
    });
    await app.listen({ host: '127.0.0.1', port: ${floorPort} });`;
  children.push(
    startFloorScript(floorScript, {
      ...process.env,
      FLOOR_DATABASE_URL: `${apps.databaseUrl}/${apps.database('study')}`,
      FLOOR_QUERY: query,
      FLOOR_USER_ID: userId,
    }),
  );
  await waitFor(`${floorUrl}/`);

  const path = `/api/sleep/log/${date}`;
  const serviceHeaders = { authorization: `Bearer ${accessToken}` };
  await throughput(studyUrl, get(path, serviceHeaders), load); // warm-up
  await throughput(floorUrl, get(path, {}), load);
  const service: number[] = [];
  const floor: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    service.push(await throughput(studyUrl, get(path, serviceHeaders), load));
    floor.push(await throughput(floorUrl, get(path, {}), load));
  }
  console.log(
    `service: GET /api/sleep/log/:date on the study service, ${CONCURRENCY} in flight, ${ROUNDS} alternating rounds of ${SECONDS} s`,
  );
  console.log(
    `  bare Fastify + postgres, same query (floor): ${median(floor).toFixed(0)} req/s; the study service: ${median(service).toFixed(0)} req/s`,
  );
  console.log(`  ratio service / floor: ${median(service.map((s, i) => s / floor[i]!)).toFixed(2)}× (goal ≥ 0.8×)`);
} finally {
  await stopProcesses(children);
  await apps.stop(['identity', 'study']);
}
