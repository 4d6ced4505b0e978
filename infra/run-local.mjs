#!/usr/bin/env node
/**
 * Runs every service and the gateway in one terminal (npm start), compiled to JavaScript
 * (build-apps.mjs) and each supervised: one
 * that crashes is restarted with backoff while the others keep serving (supervisor.mjs).
 * Ctrl-C stops them all. Services listen on 127.0.0.1 at SERVICE_PORT_BASE + n; the
 * gateway on PORT (3000). Needs PostgreSQL (DATABASE_URL) and NATS with JetStream
 * (NATS_URL): see README.
 */
import { fileURLToPath } from 'node:url';
import { buildApps } from './build-apps.mjs';
import { systemCommands } from './services.mjs';
import { supervise } from './supervisor.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = Number(process.env.SERVICE_PORT_BASE ?? 4000);

// Readable logs in a terminal unless asked otherwise.
// Compiled first, every time (about a second): what runs is never older than the sources.
await buildApps();
const supervisor = supervise(systemCommands({ base, compiled: true, env: { LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty' } }), {
  cwd: root,
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    supervisor.stop().then(() => process.exit(0));
  });
}
