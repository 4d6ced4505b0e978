import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, AccessTokenClaims } from '@sleepweave/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { forbidden, unauthorized } from './errors.ts';

/** Only these algorithms are accepted (an allow-list: never `none`, never HMAC). */
export const ACCESS_TOKEN_ALGORITHMS = ['ES256'];

export type AccessTokenVerifier = (token: string) => Promise<AccessTokenClaims & { exp: number }>;

export function createAccessTokenVerifier(keys: JWTVerifyGetKey): AccessTokenVerifier {
  return async (token) => {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ACCESS_TOKEN_ALGORITHMS,
      audience: ACCESS_TOKEN_AUDIENCE,
      issuer: ACCESS_TOKEN_ISSUER,
      requiredClaims: ['exp', 'sub', 'sid'],
    });
    const claims = AccessTokenClaims.parse(payload);
    return { ...claims, exp: payload.exp as number };
  };
}

/** Keys from identity's JWKS endpoint (cached; refetched when an unknown `kid` appears). */
export function remoteKeySet(identityUrl: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL('/.well-known/jwks.json', identityUrl), {
    cooldownDuration: 5_000,
    cacheMaxAge: 10 * 60_000,
  });
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
