import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callService, isSuccess, ServiceCallTimeout } from './http-client.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server of the test's own on a free port; its base URL. */
async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<URL> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

describe('callService', () => {
  it('answers with the status, the headers and the whole body as text, however it was cut into chunks', async () => {
    const text = 'Zoë Łukasiewicz-Ольга ’ – ½ '.repeat(2_000);
    const bytes = Buffer.from(text);
    const base = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-seen': String(request.headers['x-internal-token']) });
      // split inside a multi-byte character
      response.write(bytes.subarray(0, 3));
      setTimeout(() => response.end(bytes.subarray(3)), 10);
    });
    const answer = await callService(new URL('/keys', base), { headers: { 'x-internal-token': 'secret' }, timeoutMs: 2_000 });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-seen']).toBe('secret');
    expect(answer.body).toBe(text);
    expect(isSuccess(answer)).toBe(true);
  });

  it('posts its body with its length, and a refusal is an answer too', async () => {
    const base = await serve((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ method: request.method, length: request.headers['content-length'], got: Buffer.concat(chunks).toString() }),
        );
      });
    });
    const body = JSON.stringify({ refreshToken: 'ëx', rotate: true });
    const answer = await callService(new URL('/internal/session/refresh', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      timeoutMs: 2_000,
    });
    expect(answer.status).toBe(401);
    expect(isSuccess(answer)).toBe(false);
    expect(JSON.parse(answer.body)).toEqual({ method: 'POST', length: String(Buffer.byteLength(body)), got: body });
  });

  it('fails when nothing listens', async () => {
    const base = await serve(() => undefined);
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    await expect(callService(new URL('/health', base), { timeoutMs: 2_000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('fails after its time when the other end does not answer, or stops halfway', async () => {
    const silent = await serve(() => undefined);
    const started = performance.now();
    await expect(callService(new URL('/health', silent), { timeoutMs: 200 })).rejects.toBeInstanceOf(ServiceCallTimeout);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(performance.now() - started).toBeLessThan(1_500);

    const halfway = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only some of it');
    });
    await expect(callService(new URL('/events', halfway), { timeoutMs: 200 })).rejects.toBeInstanceOf(ServiceCallTimeout);
  });

  it('ends at once when its signal aborts (its caller is stopping)', async () => {
    const silent = await serve(() => undefined);
    const stopping = new AbortController();
    const started = performance.now();
    const call = callService(new URL('/internal/events', silent), { timeoutMs: 30_000, signal: stopping.signal });
    setTimeout(() => stopping.abort(), 100);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('fails when the connection breaks before the answer ends', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only some of it', () => response.socket?.destroy());
    });
    await expect(callService(new URL('/events', base), { timeoutMs: 2_000 })).rejects.toThrow('cut off');
  });
});
