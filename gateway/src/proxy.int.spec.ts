/**
 * The proxy's bounds when a service stops answering: the calls waiting for its connections
 * are capped (refused at once past it), a call whose client went away while it waited is
 * never sent, and a call is given up when the service sends no answer in time.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceBusy, ServiceProxy } from './proxy.ts';

let upstream: Server;
let origin: string;
/** Paths the stand-in service received, in order. */
const received: string[] = [];
/** Answers held back: each waits here until released. */
const held: ServerResponse[] = [];

beforeAll(async () => {
  upstream = createServer((request: IncomingMessage, response: ServerResponse) => {
    received.push(request.url ?? '');
    if (request.url?.startsWith('/hold')) held.push(response);
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

/** A GET as Fastify hands it to the proxy; `client.destroyed` says whether its client is gone. */
function get(url: string, client = { destroyed: false }): FastifyRequest {
  return { method: 'GET', url, headers: {}, body: undefined, raw: { socket: client } } as unknown as FastifyRequest;
}
const target = () => ({ origin, headers: {}, cookies: false });
const releaseHeld = () => {
  for (const response of held.splice(0)) response.writeHead(200, { 'content-type': 'application/json' }).end('{"held":true}');
};

describe('ServiceProxy', () => {
  it('refuses a call at once when as many as it queues already wait for the service, and takes calls again once they are answered', async () => {
    received.length = 0;
    const proxy = new ServiceProxy({ pool: { connections: 1, pipelining: 1 }, maxQueued: 2 });
    try {
      // one sent (held by the service), two waiting for its connection
      const calls = [
        proxy.forward(get('/hold/1'), target()),
        proxy.forward(get('/hold/2'), target()),
        proxy.forward(get('/hold/3'), target()),
      ];
      await expect.poll(() => held.length).toBe(1);
      await expect(proxy.forward(get('/refused'), target())).rejects.toBeInstanceOf(ServiceBusy);
      // the service answers: the queue empties, one by one
      for (let i = 0; i < 3; i++) {
        await expect.poll(() => held.length).toBe(1);
        releaseHeld();
      }
      for (const call of calls) expect((await call).statusCode).toBe(200);
      expect((await proxy.forward(get('/after'), target())).statusCode).toBe(200);
      expect(received).toEqual(['/hold/1', '/hold/2', '/hold/3', '/after']);
    } finally {
      releaseHeld();
      await proxy.close();
    }
  });

  it('does not send a call whose client went away while it waited for a connection', async () => {
    received.length = 0;
    const proxy = new ServiceProxy({ pool: { connections: 1, pipelining: 1 }, maxQueued: 10 });
    try {
      const first = proxy.forward(get('/hold/first'), target());
      await expect.poll(() => held.length).toBe(1);
      const client = { destroyed: false };
      const abandoned = proxy.forward(get('/abandoned', client), target());
      const next = proxy.forward(get('/next'), target());
      client.destroyed = true; // her browser closed the connection meanwhile
      releaseHeld();
      expect((await first).statusCode).toBe(200);
      await expect(abandoned).rejects.toThrow(/went away/);
      expect((await next).statusCode).toBe(200);
      expect(received).toEqual(['/hold/first', '/next']);
    } finally {
      releaseHeld();
      await proxy.close();
    }
  });

  it('gives up on a service that sends no answer in time (the gateway answers 504), and counts the call as over', async () => {
    const proxy = new ServiceProxy({ pool: { connections: 1, pipelining: 1, headersTimeout: 300 }, maxQueued: 0 });
    try {
      await expect(proxy.forward(get('/hold/silent'), target())).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
      releaseHeld();
      // the timed-out call no longer counts against the bound (one call at once here)
      expect((await proxy.forward(get('/after-timeout'), target())).statusCode).toBe(200);
    } finally {
      releaseHeld();
      await proxy.close();
    }
  });
});
