/**
 * A double read back as text (a row, or a COPY as the research export reads its nights) is
 * the double that was written, even on a server whose default sends 15 significant digits
 * (extra_float_digits = 0): every connection asks for the shortest exact text.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, dropDatabase, ensureDatabase } from './database.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const database = `sw_test_float_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  await ensureDatabase(DATABASE_URL, database);
  const admin = connectDatabase(DATABASE_URL, 'postgres', { max: 1 });
  await admin.unsafe(`alter database ${database} set extra_float_digits = 0`);
  await admin.end();
});
afterAll(async () => {
  await dropDatabase(DATABASE_URL, database);
});

describe('floating-point values as text', () => {
  it('come back exact on a server that would round them to 15 digits', async () => {
    const sql = connectDatabase(DATABASE_URL, database, { max: 1 });
    try {
      const [row] = await sql<
        { x: number; text: string }[]
      >`select 0.1::float8 + 0.2::float8 as x, (0.1::float8 + 0.2::float8)::text as text`;
      expect(row).toEqual({ x: 0.1 + 0.2, text: '0.30000000000000004' });
      let copied = '';
      const copy = await sql`copy (select 0.1::float8 + 0.2::float8) to stdout`.readable();
      for await (const chunk of copy as AsyncIterable<Buffer>) copied += chunk.toString();
      expect(copied).toBe('0.30000000000000004\n');
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
