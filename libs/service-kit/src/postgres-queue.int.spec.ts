/**
 * A pool under steady load costs the same per query at the end as at the start. postgres.js
 * 3.4.9 keeps its connections in queues whose array is reset only once it drains; the busy
 * queue never drains under load (a busy connection is shifted and pushed back for every
 * pipelined query), so the array grew by one per query and every remove searched it from
 * the start: throughput fell by half within 8 s (patches/postgres+3.4.9.patch). Counted
 * here as the array slots those searches look at, not as time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectDatabase } from './database.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the database pool's queues", () => {
  it('search only their live part, so steady load does not make each query dearer', async () => {
    const sql = connectDatabase(DATABASE_URL, 'postgres', { max: 2 });
    try {
      await sql`select 1`;
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
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
