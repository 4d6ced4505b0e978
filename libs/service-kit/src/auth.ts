import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, AccessTokenClaims, TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { forbidden, HttpError, unauthorized } from './errors.ts';
import { callService, isSuccess } from './http-client.ts';

/** Only these algorithms are accepted (an allow-list: never `none`, never HMAC). */
export const ACCESS_TOKEN_ALGORITHMS = ['ES256'];

export type AccessTokenVerifier = (token: string) => Promise<AccessTokenClaims & { exp: number }>;

export function createAccessTokenVerifier(
  keys: JWTVerifyGetKey,
  options: { cacheSize?: number } = {},
): AccessTokenVerifier & { cached(): number } {
  const cacheSize = options.cacheSize ?? 10_000;
  // Tokens already verified, until they expire: a signature does not change, so each token
  // is checked with WebCrypto once, not on every request (~175 µs each). Whether its
  // session was revoked is not cached: callers check that on every request.
  const verified = new Map<string, AccessTokenClaims & { exp: number }>();
  const verify = async (token: string) => {
    const known = verified.get(token);
    if (known && known.exp * 1000 > Date.now()) return known;
    verified.delete(token);
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ACCESS_TOKEN_ALGORITHMS,
      audience: ACCESS_TOKEN_AUDIENCE,
      issuer: ACCESS_TOKEN_ISSUER,
      requiredClaims: ['exp', 'sub', 'sid'],
    });
    const claims = Object.freeze({ ...AccessTokenClaims.parse(payload), exp: payload.exp as number });
    if (cacheSize > 0) {
      // Expired ones go as new ones come: entries are in the order they were verified and
      // tokens live alike (15 minutes), so the expired are at the front. Kept until the cache
      // was full, they were most of it (a soak review: 10,000 entries, some 1,500 alive).
      const now = Date.now();
      for (const [oldest, { exp }] of verified) {
        if (exp * 1000 > now) break;
        verified.delete(oldest);
      }
      // bounded: the oldest entry goes first
      if (verified.size >= cacheSize) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
    }
    return claims;
  };
  return Object.assign(verify, { cached: () => verified.size });
}

/**
 * identity's signing keys could not be fetched (identity down or restarting) and none are
 * known yet: the token can be judged neither good nor bad. A 503, never a 401 (a 401
 * would sign her out).
 */
export class KeysUnavailable extends Error {
  override name = 'KeysUnavailable';
}

export interface RemoteKeySetOptions {
  /** Fetch the set again after this long (in the background; the last good set serves meanwhile). */
  refreshMs?: number;
  /** At most one fetch for an unknown key id in this long. */
  cooldownMs?: number;
  timeoutMs?: number;
}

/**
 * identity's public keys (GET /.well-known/jwks.json), kept: the last good set is used
 * whatever happens to identity afterwards, refreshed in the background every
 * `refreshMs`, and fetched at once for a key id it does not know (a rotation). Only when
 * no set was ever fetched, or an unknown key id appears while identity is away, does a
 * verification fail with KeysUnavailable.
 */
export function remoteKeySet(identityUrl: string, options: RemoteKeySetOptions = {}): JWTVerifyGetKey {
  const { refreshMs = 10 * 60_000, cooldownMs = 5_000, timeoutMs = 3_000 } = options;
  const url = new URL('/.well-known/jwks.json', identityUrl);
  let keys: ReturnType<typeof createLocalJWKSet> | null = null;
  let fetchedAt = 0;
  let attemptedAt = 0;
  let inFlight: Promise<void> | null = null;

  const refresh = () =>
    (inFlight ??= (async () => {
      attemptedAt = Date.now();
      try {
        const answer = await callService(url, { timeoutMs });
        if (!isSuccess(answer)) throw new Error(`identity answered ${answer.status} for its keys`);
        keys = createLocalJWKSet(JSON.parse(answer.body) as JSONWebKeySet);
        fetchedAt = Date.now();
      } finally {
        inFlight = null;
      }
    })());

  return async (header, token) => {
    if (!keys) {
      await refresh().catch((err: unknown) => {
        throw new KeysUnavailable(`identity's signing keys are unavailable: ${(err as Error).message}`);
      });
    } else if (Date.now() - fetchedAt > refreshMs && Date.now() - attemptedAt > cooldownMs) {
      refresh().catch(() => undefined); // the last good set serves meanwhile
    }
    try {
      return await keys!(header, token);
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
      // A key id it does not know: a new key of identity's, or a forged token.
      if (Date.now() - attemptedAt < cooldownMs) throw err;
      await refresh().catch((fetchErr: unknown) => {
        throw new KeysUnavailable(`identity's signing keys are unavailable: ${(fetchErr as Error).message}`);
      });
      return keys!(header, token);
    }
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller, from the gateway's `Authorization: Bearer` access token. */
    user: AccessTokenClaims | null;
  }
}

/**
 * Reads `Authorization: Bearer <access token>` (set by the gateway) on every request.
 * Services never trust a user id header: the token is verified here again.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { verifier: AccessTokenVerifier }) => {
    app.decorateRequest('user', null);
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (!header?.startsWith('Bearer ')) return;
      try {
        const { sub, sid, role } = await options.verifier(header.slice(7));
        request.user = { sub, sid, role };
      } catch (err) {
        if (err instanceof KeysUnavailable) {
          request.log.warn({ err: { message: err.message } }, 'cannot verify the access token');
          throw new HttpError(503, 'unavailable', TEMPORARILY_UNAVAILABLE_MESSAGE);
        }
        request.log.debug({ err }, 'access token refused');
      }
    });
  },
  { name: 'sleepweave-auth' },
);

export function requireUser(request: FastifyRequest): AccessTokenClaims {
  if (!request.user) throw unauthorized();
  return request.user;
}

export function requireAdmin(request: FastifyRequest): AccessTokenClaims {
  const user = requireUser(request);
  if (user.role !== 'admin') throw forbidden();
  return user;
}
