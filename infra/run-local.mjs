#!/usr/bin/env node
/**
 * Runs every service and the gateway in one terminal (npm start), compiled to JavaScript
 * (build-apps.mjs) and each supervised: one
 * that crashes is restarted with backoff while the others keep serving (supervisor.mjs).
 * Ctrl-C stops them all. Services listen on 127.0.0.1 at SERVICE_PORT_BASE + n; the
 * gateway on PORT (3000). Needs PostgreSQL (DATABASE_URL) and NATS with JetStream
 * (NATS_URL): see README.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prettyLogLines } from './pretty-logs.mjs';
import { servicePortBase, systemCommands } from './services.mjs';
import { REFUSED_EXIT_CODE, stopOnSignals, supervise } from './supervisor.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = servicePortBase(process.env);
if (base === null) {
  process.stderr.write(
    `Invalid configuration:\n  SERVICE_PORT_BASE: a whole number from 1 to 65529 (got '${process.env.SERVICE_PORT_BASE}')\n`,
  );
  process.exit(REFUSED_EXIT_CODE);
}

// Compiled first where out of date (about a second; build-apps.mjs keeps what each app was
// compiled from): what runs is never older than the sources.
// In a process of its own: esbuild (its library and the service process it keeps) would
// otherwise stay in this one's memory for as long as the system runs.
const built = spawnSync(process.execPath, [fileURLToPath(new URL('./build-apps.mjs', import.meta.url))], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
// Readable logs in a terminal unless asked otherwise (LOG_FORMAT=json): the apps write JSON
// lines and this process makes them readable, once for all (pretty-logs.mjs).
const pretty = (process.env.LOG_FORMAT ?? 'pretty') === 'pretty';
const supervisor = supervise(systemCommands({ base, compiled: true, env: { LOG_FORMAT: 'json' } }), {
  cwd: root,
  format: pretty ? prettyLogLines() : undefined,
  // a setting it names is wrong: every restart would meet it again, so npm start ends, saying so
  onRefused: (name) => {
    process.stderr.write(`npm start: ${name} refused its configuration (above); fix the setting it names and start again.\n`);
    void supervisor.stop().then(() => process.exit(REFUSED_EXIT_CODE));
  },
});

stopOnSignals(supervisor);
