/**
 * The e2e suite's system (playwright.config.ts's webServer): `npm start`'s stack
 * (infra/run-local.mjs) on the suite's own databases (DB_PREFIX) and bus prefix
 * (BUS_PREFIX), which this process removes before the stack starts (what a run that was
 * killed left behind) and again once it has stopped. Playwright ends the suite with a
 * SIGTERM to this process group (the config's gracefulShutdown): the stack stops through
 * its own shutdown, then this process cleans up and exits.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { dropDatabase } from '@sleepweave/service-kit';
import { SERVICE_PORT_OFFSETS } from '../../../infra/services.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const dbPrefix = process.env.DB_PREFIX ?? '';
const busPrefix = process.env.BUS_PREFIX ?? '';
// Never the databases and streams of `npm start` (prefix sleepweave_ and the empty bus prefix).
if (!/^sleepweave_\w+_$/.test(dbPrefix) || !busPrefix) {
  throw new Error(`the e2e stack needs a DB_PREFIX of its own and a BUS_PREFIX (got '${dbPrefix}', '${busPrefix}')`);
}

async function removeData(): Promise<void> {
  const names = Object.keys(SERVICE_PORT_OFFSETS).map((service) => `${dbPrefix}${service.replaceAll('-', '_')}`);
  for (const name of names) await dropDatabase(databaseUrl, name);
  await deleteStreamsOfPrefix(natsUrl, busPrefix);
}

await removeData();
const stack = spawn(process.execPath, ['infra/run-local.mjs'], { cwd: root, stdio: 'inherit' });
// The signal reaches the stack as well (the whole process group gets it): here it only waits.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
const code = await new Promise<number>((resolve) => stack.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
try {
  await removeData();
} catch (error) {
  console.error('the e2e stack could not remove its databases and streams:', error);
  process.exitCode = 1;
}
process.exit(process.exitCode ?? code);
