/**
 * A COPY ... TO STDOUT read by a slow consumer leaves its connection usable: postgres.js
 * 3.4.9 paused the socket for back-pressure on a CopyData that arrived in the same chunk as
 * the CopyDone, and nothing resumed it, so the connection's next query hung for good
 * (porsager/postgres#1016; patches/postgres+3.4.9.patch). The research export reads its
 * nights this way.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from './database.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';

describe('COPY TO STDOUT with a slow reader', () => {
  it('leaves the connection free for the next query', async () => {
    const sql = connectDatabase(DATABASE_URL, 'postgres', { max: 1 });
    try {
      for (let round = 0; round < 5; round++) {
        let bytes = 0;
        const copy = await sql`copy (select i, repeat('x', 200) from generate_series(1, 20000) as i) to stdout`.readable();
        for await (const chunk of copy as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          await sleep(0);
        }
        expect(bytes).toBeGreaterThan(20000 * 200);
        const next = sql`select ${round}::int as round`;
        const answer = await Promise.race([next, sleep(5_000).then(() => 'hung')]);
        expect(answer).toEqual([{ round }]);
      }
    } finally {
      await sql.end({ timeout: 1 });
    }
  }, 60_000);
});
