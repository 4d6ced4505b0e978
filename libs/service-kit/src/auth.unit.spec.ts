import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@sleepweave/contracts';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTVerifyGetKey } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAccessTokenVerifier } from './auth.ts';

const { publicKey, privateKey } = await generateKeyPair('ES256');
const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });

/** The key set, counting how often a verification asked it for a key (one per signature check). */
function countingKeys() {
  const keys = Object.assign(((header, token) => (keys.calls++, jwks(header, token))) as JWTVerifyGetKey, { calls: 0 });
  return keys as JWTVerifyGetKey & { calls: number };
}

const sign = (expiresInSeconds: number, sub = randomUUID()) =>
  new SignJWT({ sid: randomUUID(), role: 'participant' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setSubject(sub)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(privateKey);

afterEach(() => vi.useRealTimers());

describe('the access token verifier', () => {
  it('checks a token’s signature once, then knows it until it expires', async () => {
    const keys = countingKeys();
    const verify = createAccessTokenVerifier(keys);
    const token = await sign(600);
    const first = await verify(token);
    const again = await verify(token);
    expect(again).toEqual(first);
    expect(keys.calls).toBe(1);
    await verify(await sign(600));
    expect(keys.calls).toBe(2);
  });

  it('refuses a known token once it has expired', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const verify = createAccessTokenVerifier(countingKeys());
    const token = await sign(60);
    await verify(token);
    vi.setSystemTime(Date.now() + 61_000);
    await expect(verify(token)).rejects.toThrow(/exp/);
  });

  it('never keeps a token it refused', async () => {
    const keys = countingKeys();
    const verify = createAccessTokenVerifier(keys);
    const token = await sign(600);
    const forged = `${token.slice(0, -4)}AAAA`;
    await expect(verify(forged)).rejects.toThrow();
    await expect(verify(forged)).rejects.toThrow();
    expect(keys.calls).toBe(2);
  });

  it('lets expired tokens go as new ones come, not only once the cache is full', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const verify = createAccessTokenVerifier(countingKeys());
    for (const token of await Promise.all([sign(60), sign(60), sign(60)])) await verify(token);
    expect(verify.cached()).toBe(3);
    vi.setSystemTime(Date.now() + 61_000);
    await verify(await sign(600));
    expect(verify.cached()).toBe(1);
  });

  it('keeps at most cacheSize tokens, the oldest going first', async () => {
    const keys = countingKeys();
    const verify = createAccessTokenVerifier(keys, { cacheSize: 2 });
    const [a, b, c] = await Promise.all([sign(600), sign(600), sign(600)]);
    for (const token of [a, b, c]) await verify(token);
    expect(keys.calls).toBe(3);
    await verify(c);
    await verify(b);
    expect(keys.calls).toBe(3);
    await verify(a);
    expect(keys.calls).toBe(4);
  });
});
