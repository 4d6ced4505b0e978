#!/usr/bin/env node
/**
 * Runs every service and the gateway in one terminal (npm start). Ctrl-C stops them all.
 * Services listen on 127.0.0.1 at SERVICE_PORT_BASE + n; the gateway on PORT (3000).
 * Needs PostgreSQL (DATABASE_URL) and NATS with JetStream (NATS_URL): see README.
 */
import { concurrently } from 'concurrently';
import { fileURLToPath } from 'node:url';
import { presentServices, urlVariable } from './services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = Number(process.env.SERVICE_PORT_BASE ?? 4000);

/** Every service present in the tree; the gateway learns their URLs from here. */
const services = presentServices();
const urls = Object.fromEntries(services.map(({ name, offset }) => [urlVariable(name), `http://127.0.0.1:${base + offset}`]));

// Readable logs in a terminal unless asked otherwise.
const shared = { LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty' };

const commands = [
  ...services.map(({ name, offset }) => ({
    name,
    command: `node --import tsx services/${name}/src/server.ts`,
    env: { ...shared, ...urls, PORT: String(base + offset), HOST: '127.0.0.1' },
  })),
  { name: 'gateway', command: 'node --import tsx gateway/src/server.ts', env: { ...shared, ...urls } },
];

const { result } = concurrently(commands, {
  cwd: root,
  prefix: 'name',
  killOthersOn: ['failure', 'success'],
  killSignal: 'SIGTERM',
  handleInput: false,
});

result.then(
  () => process.exit(0),
  (events) => {
    const failed = events.filter((e) => e.exitCode !== 0 && e.exitCode !== 'SIGTERM' && e.exitCode !== 'SIGINT');
    process.exit(failed.length > 0 ? 1 : 0);
  },
);
