/**
 * A migration file is applied once; a file changed after it was applied to a database stops
 * the start, naming it (the database would otherwise stay on the old text while the code
 * expects the new one, and fail only at the first query that needs it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, dropDatabase, ensureDatabase, MigrationRefused, runMigrations, type Sql } from './database.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const database = `sw_test_migrations_${randomBytes(4).toString('hex')}`;
let sql: Sql;
let dir: string;

beforeAll(async () => {
  await ensureDatabase(DATABASE_URL, database);
  sql = connectDatabase(DATABASE_URL, database, { max: 1 });
  dir = await mkdtemp(join(tmpdir(), 'sw-migrations-'));
});
afterAll(async () => {
  await sql?.end();
  await dropDatabase(DATABASE_URL, database);
  await rm(dir, { recursive: true, force: true });
});

describe('runMigrations', () => {
  it('applies each file once, keeps its hash, and stops the start when an applied file has changed', async () => {
    await writeFile(join(dir, '001_things.sql'), 'create table things (id int primary key);\n');
    expect(await runMigrations(sql, dir)).toEqual(['001_things.sql']);
    await writeFile(join(dir, '002_more.sql'), 'alter table things add column name text;\n');
    expect(await runMigrations(sql, dir)).toEqual(['002_more.sql']);
    expect(await runMigrations(sql, dir)).toEqual([]);

    // 001 edited after it was applied: refused, naming it; nothing else applied meanwhile
    await writeFile(join(dir, '001_things.sql'), 'create table things (id int primary key, extra text);\n');
    await writeFile(join(dir, '003_later.sql'), 'create table later (id int);\n');
    await expect(runMigrations(sql, dir)).rejects.toThrow(MigrationRefused);
    await expect(runMigrations(sql, dir)).rejects.toThrow(/^migration 001_things\.sql changed after it was applied to this database/);
    expect(await sql`select 1 from pg_tables where tablename = 'later'`).toHaveLength(0);
  });

  it('stops the start, naming the file, when the database refuses its SQL; applies nothing of that start', async () => {
    const later = await mkdtemp(join(tmpdir(), 'sw-migrations-refused-'));
    try {
      await writeFile(join(later, '001_ok.sql'), 'create table ok_first (id int);\n');
      await writeFile(join(later, '002_twice.sql'), 'create table twice (id int);\ncreate table twice (id int);\n');
      const refused = runMigrations(sql, later);
      await expect(refused).rejects.toThrow(MigrationRefused);
      await expect(runMigrations(sql, later)).rejects.toThrow(
        /^migration 002_twice\.sql failed: relation "twice" already exists \(SQLSTATE 42P07\); nothing of it was applied$/,
      );
      expect(await sql`select 1 from pg_tables where tablename in ('ok_first', 'twice')`).toHaveLength(0);
      // alike: a role without the right, a statement that cannot run in a transaction
      await writeFile(join(later, '002_twice.sql'), 'set local role pg_read_all_data;\ncreate table twice (id int);\n');
      await expect(runMigrations(sql, later)).rejects.toThrow(
        /^migration 002_twice\.sql failed: permission denied for schema public \(SQLSTATE 42501\)/,
      );
      await writeFile(join(later, '002_twice.sql'), 'create index concurrently ok_first_id on ok_first (id);\n');
      await expect(runMigrations(sql, later)).rejects.toThrow(
        /^migration 002_twice\.sql failed: CREATE INDEX CONCURRENTLY cannot run inside a transaction block \(SQLSTATE 25001\)/,
      );
      // a lost connection is not the file's fault: thrown as it is, for the start to be tried again
      await writeFile(join(later, '002_twice.sql'), 'select pg_terminate_backend(pg_backend_pid());\n');
      const own = connectDatabase(DATABASE_URL, database, { max: 1 });
      const lost = await runMigrations(own, later).catch((error: unknown) => error);
      await own.end({ timeout: 1 });
      expect(lost).not.toBeInstanceOf(MigrationRefused);
      expect(['57P01', 'CONNECTION_CLOSED']).toContain((lost as { code?: string }).code);
    } finally {
      await rm(later, { recursive: true, force: true });
    }
  });

  it('takes the hash of a file applied before hashes were kept, at the next start, as it is then', async () => {
    await writeFile(join(dir, '001_things.sql'), 'create table things (id int primary key);\n');
    await sql`update schema_migrations set sha256 = null`;
    expect(await runMigrations(sql, dir)).toEqual(['003_later.sql']);
    const rows = await sql<{ name: string; sha256: string | null }[]>`select name, sha256 from schema_migrations order by name`;
    expect(rows.map((row) => [row.name, row.sha256?.length])).toEqual([
      ['001_things.sql', 64],
      ['002_more.sql', 64],
      ['003_later.sql', 64],
    ]);
  });
});
