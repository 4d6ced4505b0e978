import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { authPlugin, requireUser } from './auth.ts';
import { createHttpApp } from './http.ts';
import { personalExportRoute, registerRateLimits } from './rate-limits.ts';

/** An app with one export written as it is read, over a real socket: it ends when the test says. */
async function streamingApp() {
  const app = createHttpApp({ logger: pino({ level: 'silent' }) });
  await app.register(authPlugin, {
    verifier: async (token: string) => ({ sub: token, sid: 's', role: 'participant' as const, exp: Math.floor(Date.now() / 1000) + 900 }),
  });
  await registerRateLimits(app);
  const writing: PassThrough[] = [];
  app.get('/api/things/stream', personalExportRoute(100), async (request, reply) => {
    requireUser(request);
    const out = new PassThrough();
    writing.push(out);
    out.write('first part\n');
    return reply.header('content-type', 'text/plain').send(out);
  });
  return Object.assign(app, { writing });
}

describe('personalExportRoute', () => {
  it('makes two of her exports at once, answers a third 429 with a sentence, and takes one again when one has gone or she left', async () => {
    const app = await streamingApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as { port: number };
      const as = (user: string, signal?: AbortSignal) =>
        fetch(`http://127.0.0.1:${port}/api/things/stream`, { headers: { authorization: `Bearer ${user}` }, signal });
      const first = await as('her');
      const left = new AbortController();
      const second = await as('her', left.signal);
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await as('her');
      expect(third.status).toBe(429);
      expect(await third.json()).toEqual({
        error: 'too_many_requests',
        message: '2 of your exports are still being made. Please wait for them to finish and try again.',
      });
      // another member's are hers alone
      expect((await as('someone-else')).status).toBe(200);

      // the first is read to its end
      const [firstOut, secondOut] = app.writing;
      firstOut!.end('last part\n');
      expect(await first.text()).toBe('first part\nlast part\n');
      const fourth = await as('her');
      expect(fourth.status).toBe(200);
      // she leaves the second: it is released too
      left.abort();
      await once(secondOut!, 'close');
      await vi.waitFor(async () => expect((await as('her')).status).toBe(200));
      expect((await as('her')).status).toBe(429);
      for (const out of app.writing) out.end();
    } finally {
      await app.close();
    }
  });
});
