/**
 * A client that stops without closing its connection (a paused container, a frozen
 * machine, a network cut: no FIN, no RST) while its transaction holds a stream's lock.
 * PostgreSQL ends such a transaction after IDLE_IN_TRANSACTION_TIMEOUT_MS, which every
 * connection of the apps sets, and the writes waiting for that stream go on; without it
 * they waited until TCP gave up on the client (two hours by default).
 *
 * The client is frozen by a TCP relay of the test's own that stops passing bytes and
 * keeps both sockets open. The timeout is shortened to a second for the test.
 */
import { randomUUID } from 'node:crypto';
import { createServer, Socket as NetSocket, type Server, type Socket } from 'node:net';
import { lockStream } from '@sleepweave/event-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, dropDatabase, ensureDatabase, IDLE_IN_TRANSACTION_TIMEOUT_MS, type Sql } from './database.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const database = `sw_test_frozen_${randomUUID().slice(0, 8)}`;
const pgUrl = new URL(DATABASE_URL);

/** Passes bytes to PostgreSQL until frozen; then holds every socket open and passes nothing. */
function freezingRelay(): Promise<{ url: string; freeze: () => void; close: () => void }> {
  const sockets: Socket[] = [];
  let frozen = false;
  const server: Server = createServer((client) => {
    const upstream = new NetSocket();
    sockets.push(client, upstream);
    upstream.connect(Number(pgUrl.port || 5432), pgUrl.hostname);
    client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (frozen || client.write(chunk)));
    for (const socket of [client, upstream]) socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      const url = new URL(DATABASE_URL);
      url.host = `127.0.0.1:${port}`;
      resolve({
        url: url.toString(),
        freeze: () => void (frozen = true),
        close: () => {
          for (const socket of sockets) socket.destroy();
          server.close();
        },
      });
    }),
  );
}

/** How long a transaction of `writer` waits for the stream's lock, at most `limitMs` (null: still waiting). */
async function lockWait(writer: Sql, streamId: string, limitMs: number): Promise<number | null> {
  const started = Date.now();
  const locked = writer.begin(async (tx) => {
    await tx`select set_config('lock_timeout', ${`${limitMs}ms`}, true)`;
    await lockStream(tx as never, streamId);
  });
  try {
    await locked;
    return Date.now() - started;
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') return null; // lock_not_available
    throw err;
  }
}

let writer: Sql;
beforeAll(async () => {
  await ensureDatabase(DATABASE_URL, database);
  writer = connectDatabase(DATABASE_URL, database, { max: 1 });
});
afterAll(async () => {
  await writer?.end();
  await dropDatabase(DATABASE_URL, database);
});

/** A client of `settings` takes the stream's lock in a transaction, through a relay that then freezes. */
async function frozenHolder(streamId: string, settings: Record<string, string> = {}) {
  const relay = await freezingRelay();
  const client = connectDatabase(relay.url, database, { max: 1, settings });
  let held!: () => void;
  const isHeld = new Promise<void>((resolve) => (held = resolve));
  const holding = client
    .begin(async (tx) => {
      await lockStream(tx as never, streamId);
      held();
      await new Promise(() => undefined); // the client's next statement never comes
    })
    .catch(() => undefined);
  await isHeld;
  relay.freeze();
  return {
    close: async () => {
      relay.close();
      await client.end({ timeout: 0 }).catch(() => undefined);
      void holding;
    },
  };
}

describe('a client frozen in the middle of a transaction', () => {
  it('has its transaction ended by PostgreSQL, and the stream it locked is written again', async () => {
    const streamId = `journal_entry:${randomUUID()}`;
    const holder = await frozenHolder(streamId, { idle_in_transaction_session_timeout: '1s' });
    try {
      const waited = await lockWait(writer, streamId, 10_000);
      expect(waited).not.toBeNull();
      expect(waited!).toBeGreaterThan(500);
      expect(waited!).toBeLessThan(5_000);
    } finally {
      await holder.close();
    }
  });

  it('held the lock for as long as TCP kept its connection, without the timeout', async () => {
    const streamId = `journal_entry:${randomUUID()}`;
    const holder = await frozenHolder(streamId, { idle_in_transaction_session_timeout: '0' });
    try {
      expect(await lockWait(writer, streamId, 3_000)).toBeNull();
    } finally {
      await holder.close();
    }
  });

  it('is what every connection of the apps is set to', async () => {
    const [row] = await writer<{ timeout: string }[]>`select current_setting('idle_in_transaction_session_timeout') as timeout`;
    expect(row!.timeout).toBe('1min');
    expect(IDLE_IN_TRANSACTION_TIMEOUT_MS).toBe(60_000);
  });
});
