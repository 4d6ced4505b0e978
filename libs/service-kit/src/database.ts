import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import { listeningOptions, type ConnectionEvents } from '@sleepweave/event-store';
import type { Logger } from 'pino';

export type Sql = postgres.Sql;
/** A piece of a statement (sql`...`) to put inside another. */
export type SqlFragment = postgres.Fragment;

const DB_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates the database when it does not exist yet (concurrent starts are fine). */
export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  if (!DB_NAME.test(database)) throw new Error(`Invalid database name: ${database}`);
  const admin = postgres(databaseUrl(serverUrl, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin`select 1 as found from pg_database where datname = ${database}`;
    if (!row) {
      try {
        await admin.unsafe(`create database "${database}"`);
      } catch (err) {
        // 42P04 duplicate_database, 23505 when two processes race on pg_database
        const code = (err as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw err;
      }
    }
  } finally {
    await admin.end();
  }
}

export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  if (!DB_NAME.test(database)) throw new Error(`Invalid database name: ${database}`);
  const admin = postgres(databaseUrl(serverUrl, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${database}" with (force)`);
  } finally {
    await admin.end();
  }
}

export interface ConnectOptions {
  max?: number;
  /**
   * Closes a connection idle this long (a pool's). Never for a connection that must stay
   * open while idle: a LISTEN, a session lock.
   */
  idleTimeoutSeconds?: number;
  /** A client that LISTENs on its own connection (the relay's), and is told when it loses it. */
  events?: ConnectionEvents;
  /**
   * The connection holds a session lock (the research runs' lock) and is never recycled:
   * postgres.js closes a connection after a random 30 to 60 minutes by default, and the
   * lock would go with it in the middle of the work it guards.
   */
  holdsSessionLock?: boolean;
  /**
   * Session settings of every connection, e.g. `{ synchronous_commit: 'off' }` for a bulk
   * loader (npm run demo) that may lose its last writes in a crash but never corrupts.
   */
  settings?: Record<string, string>;
}

/**
 * Seconds before a connection tries again after failing to connect: 0.1 s doubling up to
 * 1 s. postgres.js's own backoff grows to 20 s (3^n / 100), with the count shared by the
 * pool, so after a database restart a busy service sat idle up to 20 s after the database
 * was back; one attempt a second per connection costs a database that is down nothing.
 */
export const reconnectDelaySeconds = (retries: number): number => Math.min(0.05 * 2 ** retries, 1);

/**
 * A transaction left open with nothing running is ended by PostgreSQL after this long, its
 * locks with it. A client that stops without closing its connection (a paused container,
 * a frozen machine, a network cut) otherwise held a stream's lock until TCP gave up, two
 * hours by default, and every write to that stream waited as long. Waiting on a lock is
 * not idle. The longest idle moments here: a consumer's rebuild waiting for a history page
 * over HTTP (its timeout 30 s), and the research run's zip work between its reads in one
 * snapshot (under a second for the study's size).
 */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

export function connectDatabase(serverUrl: string, database: string, options: ConnectOptions = {}): Sql {
  return postgres(databaseUrl(serverUrl, database), {
    max: options.max ?? 10,
    ...(options.idleTimeoutSeconds ? { idle_timeout: options.idleTimeoutSeconds } : {}),
    onnotice: () => {},
    transform: { undefined: null },
    backoff: reconnectDelaySeconds,
    ...(options.events ? listeningOptions(options.events) : {}),
    ...(options.holdsSessionLock ? { max_lifetime: null } : {}),
    // Floating-point values as text in their shortest exact form whatever the server's
    // default (a server set to extra_float_digits = 0 sends 15 digits): a double read back,
    // in a row or a COPY (the research export), is the double that was written.
    connection: { extra_float_digits: '3', idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS, ...options.settings },
  });
}

/**
 * A migration no restart mends, and the start stops naming it: a file changed since it was
 * applied to this database, or one whose SQL the database refused for the file's own sake
 * (a syntax error, an object that exists already or is missing, a role without the right,
 * data a new constraint refuses). A lost connection or a deadlock is no such refusal: the
 * start fails as at any unreachable database, and is tried again.
 */
export class MigrationRefused extends Error {
  override name = 'MigrationRefused';
}

/**
 * SQLSTATE classes that a migration's own text or the data it meets cause, the same at every
 * try: 0A feature not supported, 22 data exception, 23 integrity constraint violation, 25
 * invalid transaction state (a statement that cannot run in the migration's transaction),
 * 2B dependent objects still exist, 42 syntax error or access rule
 * violation, P0 raised by PL/pgSQL. (postgres.js's own errors carry codes such as
 * CONNECTION_CLOSED.)
 */
const REFUSING_SQLSTATE = /^(0A|22|23|25|2B|42|P0)[0-9A-Z]{3}$/;

function refusedByTheDatabase(error: unknown): error is Error & { code: string } {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && REFUSING_SQLSTATE.test(code);
}

/**
 * Applies `*.sql` files of a folder in name order, each once, in its own transaction.
 * An advisory lock keeps two instances starting together from applying the same file twice.
 *
 * Each file's SHA-256 is kept with it: a file changed after it was applied to this database
 * stops the start (MigrationRefused) instead of leaving the database on the old text while
 * the code expects the new one, which failed only later, at the first query that needed it.
 * A released migration is never edited; a change is a new file. Files applied before hashes
 * were kept (2026-12-06) get theirs at the next start.
 */
export async function runMigrations(sql: Sql, directory: string, logger?: Logger): Promise<string[]> {
  const files = (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort();
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('sleepweave_migrations'))`;
    await tx`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`;
    await tx`alter table schema_migrations add column if not exists sha256 text`;
    const done = new Map(
      (await tx<{ name: string; sha256: string | null }[]>`select name, sha256 from schema_migrations`).map((r) => [r.name, r.sha256]),
    );
    for (const file of files) {
      const text = await readFile(join(directory, file), 'utf8');
      const hash = createHash('sha256').update(text).digest('hex');
      if (done.has(file)) {
        const kept = done.get(file);
        if (kept === null) await tx`update schema_migrations set sha256 = ${hash} where name = ${file}`;
        else if (kept !== hash) {
          throw new MigrationRefused(
            `migration ${file} changed after it was applied to this database (applied ${kept?.slice(0, 12)}, now ${hash.slice(0, 12)}): a released migration is never edited, a change is a new file (a development database: drop it and start again)`,
          );
        }
        continue;
      }
      try {
        await tx.unsafe(text);
      } catch (error) {
        if (!refusedByTheDatabase(error)) throw error;
        throw new MigrationRefused(`migration ${file} failed: ${error.message} (SQLSTATE ${error.code}); nothing of it was applied`, {
          cause: error,
        });
      }
      await tx`insert into schema_migrations (name, sha256) values (${file}, ${hash})`;
      applied.push(file);
      logger?.info({ migration: file }, 'migration applied');
    }
  });
  return applied;
}
