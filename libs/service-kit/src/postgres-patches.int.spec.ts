/** What patches/postgres+3.4.9.patch changes in postgres.js, each part tested on its own. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectDatabase } from './database.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A client of two connections, warmed by one query, ended afterwards. */
async function withClient(work: (sql: ReturnType<typeof connectDatabase>) => Promise<void>): Promise<void> {
  const sql = connectDatabase(DATABASE_URL, 'postgres', { max: 2 });
  try {
    await sql`select 1`;
    await work(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * A pool under steady load costs the same per query at the end as at the start. postgres.js
 * 3.4.9 keeps its connections in queues whose array is reset only once it drains; the busy
 * queue never drains under load (a busy connection is shifted and pushed back for every
 * pipelined query), so the array grew by one per query and every remove searched it from
 * the start: throughput fell by half within 8 s (patches/postgres+3.4.9.patch). Counted
 * here as the array slots those searches look at, not as time.
 */
describe("the database pool's queues", () => {
  it('search only their live part, so steady load does not make each query dearer', () =>
    withClient(async (sql) => {
      let scanned = 0;
      const indexOf = Array.prototype.indexOf;
      vi.spyOn(Array.prototype, 'indexOf').mockImplementation(function (this: unknown[], item: unknown, from?: number) {
        scanned += this.length - Math.max(0, from ?? 0);
        return indexOf.call(this, item, from);
      });
      const QUERIES = 8_000;
      let started = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (started++ < QUERIES) await sql`select 1`;
        }),
      );
      vi.restoreAllMocks();
      // A few slots per query (the pool has two connections); unpatched: tens of millions.
      expect(scanned / QUERIES).toBeLessThan(20);
    }));
});

/**
 * A query's result is made without giving it slow properties. postgres.js 3.4.9 gave each
 * result (one a query, and one more at each ReadyForQuery) its count, command, columns,
 * state and statement with Object.defineProperties: some 5 µs to make, and an object in
 * dictionary mode after it. A client's CPU a query (16 in flight, one parameter) was
 * 29–35 µs with that and 17–22 µs with the patch (patches/postgres+3.4.9.patch), which
 * keeps them as private fields behind accessors: still not enumerable, not own keys.
 * Counted here as calls, not as time.
 */
describe("the database client's results", () => {
  it('are made without Object.defineProperties and carry what they carried', () =>
    withClient(async (sql) => {
      const defineProperties = vi.spyOn(Object, 'defineProperties');
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => sql<{ n: number }[]>`select ${i}::int as n`));
      const many = await sql<{ n: number }[]>`select generate_series(1, 3) as n`;
      // (the test runner's own calls are on other objects)
      const onResults = defineProperties.mock.calls.filter(([target]) => Array.isArray(target)).length;
      vi.restoreAllMocks();
      expect(onResults).toBe(0);

      expect(results.map((rows) => rows[0]!.n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(many).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(Object.keys(many)).toEqual(['0', '1', '2']);
      expect(JSON.stringify(many)).toBe('[{"n":1},{"n":2},{"n":3}]');
      expect(many.count).toBe(3);
      expect(many.command).toBe('SELECT');
      expect(many.columns.map((column) => column.name)).toEqual(['n']);
      expect(many.statement.string).toContain('generate_series');
      // A copy is a plain array, as before (Symbol.species).
      expect(many.map((row) => row.n).constructor).toBe(Array);
    }));
});
