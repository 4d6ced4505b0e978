/**
 * Verifying access tokens while identity comes and goes: its last good key set is kept,
 * and keys that cannot be fetched answer 503, never 401 (a 401 signs her out).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@sleepweave/contracts';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authPlugin, createAccessTokenVerifier, KeysUnavailable, remoteKeySet, requireUser } from './auth.ts';
import { createHttpApp } from './http.ts';

let jwks: object;
let sign: (kid: string) => Promise<string>;
let identity: Server | null = null;
let identityUrl: string;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  sign = (kid) =>
    new SignJWT({ sid: randomUUID(), role: 'participant' })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(randomUUID())
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setExpirationTime('5m')
      .sign(privateKey);
});

async function startIdentity(port = 0): Promise<void> {
  identity = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => identity!.listen(port, '127.0.0.1', resolve));
  identityUrl = `http://127.0.0.1:${(identity.address() as AddressInfo).port}`;
}
async function stopIdentity(): Promise<void> {
  const server = identity;
  identity = null;
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
afterEach(stopIdentity);

describe('remoteKeySet', () => {
  it('keeps verifying with the last good keys while identity is away', async () => {
    await startIdentity();
    const verify = createAccessTokenVerifier(remoteKeySet(identityUrl, { refreshMs: 0 }));
    await expect(verify(await sign('k1'))).resolves.toMatchObject({ role: 'participant' });
    await stopIdentity();
    await expect(verify(await sign('k1'))).resolves.toMatchObject({ role: 'participant' });
  });

  it('cannot judge a token before any keys were fetched: KeysUnavailable, not a refusal', async () => {
    const verify = createAccessTokenVerifier(remoteKeySet('http://127.0.0.1:9'));
    await expect(verify(await sign('k1'))).rejects.toBeInstanceOf(KeysUnavailable);
  });

  it('still refuses a token signed with a key identity never published', async () => {
    await startIdentity();
    const verify = createAccessTokenVerifier(remoteKeySet(identityUrl, { cooldownMs: 0 }));
    await expect(verify(await sign('k1'))).resolves.toBeTruthy();
    await expect(verify(await sign('someone-elses'))).rejects.not.toBeInstanceOf(KeysUnavailable);
  });
});

describe('a service while identity is away', () => {
  it('answers 503 to a valid token it cannot verify yet, and serves it once identity is back', async () => {
    const app = createHttpApp({ logger: pino({ level: 'silent' }) });
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    await app.register(authPlugin, { verifier: createAccessTokenVerifier(remoteKeySet(`http://127.0.0.1:${port}`)) });
    app.get('/me', async (request) => ({ sub: requireUser(request).sub }));
    await app.ready();
    const headers = { authorization: `Bearer ${await sign('k1')}` };

    const away = await app.inject({ method: 'GET', url: '/me', headers });
    expect(away.statusCode).toBe(503);
    expect(away.json().error).toBe('unavailable');

    await startIdentity(port);
    expect((await app.inject({ method: 'GET', url: '/me', headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/me', headers: { authorization: 'Bearer not-a-token' } })).statusCode).toBe(401);
    await app.close();
  });
});
