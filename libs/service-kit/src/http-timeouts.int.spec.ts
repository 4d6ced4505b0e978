/**
 * Every HTTP process closes a connection whose client sends its request too slowly, or
 * stays silent: neither holds its memory (a body of up to a megabyte) for good. The bounds
 * are shortened here; the apps run with REQUEST_TIMEOUT_MS and CONNECTION_IDLE_TIMEOUT_MS.
 */
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp, type ServiceApp } from './http.ts';
import { createLogger } from './logger.ts';

const apps: ServiceApp[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const app of apps.splice(0)) await app.close();
});

async function listening(timeouts: { requestMs: number; idleMs: number }) {
  const app = createHttpApp({ logger: createLogger('timeouts-test', 'silent'), timeouts });
  app.post('/api/echo', async (request) => ({ got: request.body }));
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

/** A raw connection, and what it received until the server closed it (and when). */
function open(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const started = performance.now();
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) =>
    socket.on('close', () => resolve({ text, afterMs: performance.now() - started })),
  );
  socket.on('error', () => undefined);
  return { socket, closed };
}

/** The JSON body of a raw answer. */
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as unknown;

describe('HTTP timeouts', () => {
  it('answers 408 and closes the connection of a request whose body does not come in time', async () => {
    const port = await listening({ requestMs: 400, idleMs: 10_000 });
    const { socket, closed } = open(port);
    // a body announced, a little of it sent, a byte now and then: never idle, never done
    socket.write('POST /api/echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"a":"');
    const drip = setInterval(() => socket.writable && socket.write('x'), 50);
    try {
      const { text, afterMs } = await closed;
      expect(text).toMatch(/^HTTP\/1\.1 408/);
      expect(bodyOf(text)).toEqual({ error: 'timeout', message: 'The request took too long to arrive.' });
      expect(afterMs).toBeLessThan(5_000);
    } finally {
      clearInterval(drip);
    }
  });

  it('closes a connection that stays silent, and one whose request came whole is answered as usual', async () => {
    const port = await listening({ requestMs: 10_000, idleMs: 400 });
    const silent = open(port);
    const { afterMs } = await silent.closed;
    expect(afterMs).toBeGreaterThanOrEqual(350);
    expect(afterMs).toBeLessThan(5_000);

    const response = await fetch(`http://127.0.0.1:${port}/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ got: { a: 1 } });
  });
});

describe("what Node's parser refuses", () => {
  it("is answered in the app's own shape { error, message }: headers or an address over 16 KB, bytes that are not HTTP", async () => {
    const port = await listening({ requestMs: 10_000, idleMs: 10_000 });
    const longHeader = open(port);
    longHeader.socket.write(`GET /api/echo HTTP/1.1\r\nhost: x\r\nx-long: ${'a'.repeat(20_000)}\r\n\r\n`);
    const header = await longHeader.closed;
    expect(header.text).toMatch(/^HTTP\/1\.1 431/);
    expect(bodyOf(header.text)).toEqual({
      error: 'headers_too_large',
      message: 'The address or the headers of this request are too long.',
    });

    const longAddress = await fetch(`http://127.0.0.1:${port}/api/echo?search=${'a'.repeat(20_000)}`);
    expect(longAddress.status).toBe(431);
    expect(await longAddress.json()).toEqual({
      error: 'headers_too_large',
      message: 'The address or the headers of this request are too long.',
    });

    const garbage = open(port);
    garbage.socket.write('NOT HTTP AT ALL\r\n\r\n');
    const refused = await garbage.closed;
    expect(refused.text).toMatch(/^HTTP\/1\.1 400/);
    expect(bodyOf(refused.text)).toEqual({ error: 'bad_request', message: 'The request could not be read.' });
  });
});
