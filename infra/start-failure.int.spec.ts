/**
 * A service or the gateway that cannot reach PostgreSQL or NATS at start says so in one log
 * line naming the dependency and its setting, and exits 1 without a stack trace: the
 * supervisor (or the container's restart policy) starts it again later. What no restart
 * mends (a migration changed or refused, a database refusing this role, a port taken) exits
 * 78, and npm start ends, saying so.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { randomBusPrefix } from '@sleepweave/bus/testing';
import { connectDatabase, dropDatabase, ensureDatabase } from '@sleepweave/service-kit';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const prefix = `sw_test_${randomBytes(4).toString('hex')}_`;

/** Runs an entry point from its TypeScript source; its exit code and output. */
function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: root,
      env: { ...process.env, LOG_FORMAT: 'json', LOG_LEVEL: 'info', DB_PREFIX: prefix, BUS_PREFIX: 'startfail', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const fatal = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; setting?: string })
    .filter((line) => line.level === 60);

const busPrefix = randomBusPrefix();

afterAll(async () => {
  await dropDatabase(databaseUrl, `${prefix}journal`);
  await dropDatabase(databaseUrl, `${prefix}b_journal`);
});

describe('a process that cannot reach a dependency at start', () => {
  it('names PostgreSQL and DATABASE_URL in one fatal line, and exits 1 without a stack', async () => {
    const result = await run('services/journal/src/server.ts', { DATABASE_URL: 'postgres://postgres@127.0.0.1:1' });
    expect(result.code).toBe(1);
    expect(fatal(result.stdout)).toMatchObject([
      { setting: 'DATABASE_URL', msg: expect.stringMatching(/^Start failed at PostgreSQL \(DATABASE_URL\): /) },
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('names NATS and NATS_URL, in a service and in the gateway', async () => {
    for (const entry of ['services/journal/src/server.ts', 'gateway/src/server.ts']) {
      const result = await run(entry, { NATS_URL: 'nats://127.0.0.1:1' });
      expect(result.code, entry).toBe(1);
      expect(fatal(result.stdout), entry).toMatchObject([
        { setting: 'NATS_URL', msg: expect.stringMatching(/^Start failed at NATS \(NATS_URL\): /) },
      ]);
      expect(result.stderr, entry).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});

describe('a service whose database holds a migration changed since it was applied', () => {
  it('names it in one fatal line and exits 78 (no restart mends it)', async () => {
    // journal started once on its own database, then its first migration's hash changed
    const first = await run('services/journal/src/server.ts', { NATS_URL: 'nats://127.0.0.1:1' });
    expect(first.code).toBe(1); // its database migrated, NATS away
    const sql = connectDatabase(databaseUrl, `${prefix}journal`, { max: 1 });
    try {
      const [row] = await sql<{ name: string }[]>`update schema_migrations set sha256 = repeat('0', 64)
        where name = (select min(name) from schema_migrations) returning name`;
      const result = await run('services/journal/src/server.ts', {});
      expect(result.code).toBe(78);
      expect(fatal(result.stdout)).toMatchObject([
        { setting: 'DATABASE_URL', msg: expect.stringContaining(`migration ${row!.name} changed after it was applied to this database`) },
      ]);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await sql.end();
    }
  }, 60_000);
});

describe('a service whose database refuses one of its migrations', () => {
  it('names the file and the reason in one fatal line and exits 78 (no restart mends it)', async () => {
    // a database that already has a table of that name (started on the wrong database, say)
    const database = `${prefix}journal`;
    await dropDatabase(databaseUrl, database);
    await ensureDatabase(databaseUrl, database);
    const sql = connectDatabase(databaseUrl, database, { max: 1 });
    try {
      await sql`create table journal_entries (something text)`;
    } finally {
      await sql.end();
    }
    const result = await run('services/journal/src/server.ts', {});
    expect(result.code).toBe(78);
    expect(fatal(result.stdout)).toMatchObject([
      {
        setting: 'DATABASE_URL',
        msg: 'Start failed at PostgreSQL (DATABASE_URL): migration 001_journal.sql failed: relation "journal_entries" already exists (SQLSTATE 42P07); nothing of it was applied',
      },
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('a start that no restart mends', () => {
  it('a port another process holds: named in one fatal line, exit 78 (a second npm start restarted every app for good)', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      for (const entry of ['services/journal/src/server.ts', 'gateway/src/server.ts']) {
        const result = await run(entry, { DB_PREFIX: `${prefix}b_`, BUS_PREFIX: busPrefix, PORT: String(port), HOST: '127.0.0.1' });
        expect(result.code, entry).toBe(78);
        expect(fatal(result.stdout), entry).toMatchObject([
          {
            setting: 'PORT',
            code: 'EADDRINUSE',
            msg: expect.stringMatching(new RegExp(`^Start failed at its port 127\\.0\\.0\\.1:${port} \\(PORT\\): .*EADDRINUSE`)),
          },
        ]);
        expect(result.stderr, entry).not.toMatch(/\n\s+at /);
        // one line: no stack under it (npm start's readable log printed 16 lines of it)
        expect(result.stdout, entry).not.toMatch(/"stack"/);
      }
    } finally {
      holder.close();
    }
  }, 60_000);

  it('a database role without the right to create its database: named in one fatal line, exit 78', async () => {
    const role = `${prefix}norights`;
    const admin = connectDatabase(databaseUrl, 'postgres', { max: 1 });
    try {
      await admin.unsafe(`create role ${role} login`);
      const url = new URL(databaseUrl);
      url.username = role;
      url.password = '';
      const result = await run('services/journal/src/server.ts', { DATABASE_URL: url.href, DB_PREFIX: `${prefix}c_` });
      expect(result.code).toBe(78);
      expect(fatal(result.stdout)).toMatchObject([
        {
          setting: 'DATABASE_URL',
          msg: expect.stringMatching(/^Start failed at PostgreSQL \(DATABASE_URL\): permission denied to create database/),
        },
      ]);
    } finally {
      await admin.unsafe(`drop role if exists ${role}`);
      await admin.end();
    }
  }, 60_000);
});

describe('npm start with a SERVICE_PORT_BASE that is no port', () => {
  it('ends with the setting named and exit code 78, before compiling or starting anything', () => {
    for (const value of ['abc', '70000', '4000.5']) {
      const result = spawnSync(process.execPath, ['infra/run-local.mjs'], {
        cwd: root,
        env: { ...process.env, SERVICE_PORT_BASE: value },
        encoding: 'utf8',
      });
      expect(result.status, value).toBe(78);
      expect(result.stderr, value).toContain(`SERVICE_PORT_BASE: a whole number from 1 to 65529 (got '${value}')`);
    }
  });
});
