import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { authPlugin, requireUser } from './auth.ts';
import { createHttpApp } from './http.ts';
import { clientAddress, personalExportRoute, registerRateLimits } from './rate-limits.ts';

async function exportingApp(max: number) {
  const app = createHttpApp({ logger: pino({ level: 'silent' }) });
  await app.register(authPlugin, {
    verifier: async (token: string) => ({ sub: token, sid: 's', role: 'participant' as const, exp: Math.floor(Date.now() / 1000) + 900 }),
  });
  await registerRateLimits(app);
  app.get('/api/things/export', personalExportRoute(max), async (request) => ({ for: requireUser(request).sub }));
  return app;
}

describe('personalExportRoute', () => {
  it('lets each user export PERSONAL_EXPORTS_PER_10_MINUTES times, then answers 429 with a sentence; others are not counted with her', async () => {
    const app = await exportingApp(2);
    const as = (user: string) => app.inject({ method: 'GET', url: '/api/things/export', headers: { authorization: `Bearer ${user}` } });
    expect((await as('her')).statusCode).toBe(200);
    expect((await as('her')).statusCode).toBe(200);
    const refused = await as('her');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'too_many_requests',
      message: 'You can export up to 2 times in 10 minutes. Please wait a few minutes and try again.',
    });
    expect((await as('someone-else')).statusCode).toBe(200);
  });
});

describe('clientAddress', () => {
  it('counts an IPv4 address as it is (also written as IPv6), an IPv6 one by its /64', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    const group = clientAddress('2001:db8:85a3:42::1');
    for (const ip of ['2001:0db8:85a3:0042:0000:0000:0000:0002', '2001:db8:85a3:42:ffff:ffff:ffff:ffff', '2001:db8:85a3:42:1::7']) {
      expect(clientAddress(ip)).toBe(group);
    }
    expect(clientAddress('2001:db8:85a3:43::1')).not.toBe(group);
  });
});
