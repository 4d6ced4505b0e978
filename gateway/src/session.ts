import {
  SessionRefreshResponse,
  TEMPORARILY_UNAVAILABLE_MESSAGE,
  type AccessTokenClaims,
  type SessionRefreshRequest,
} from '@sleepweave/contracts';
import {
  callService,
  HttpError,
  internalHeaders,
  isSuccess,
  KeysUnavailable,
  type AccessTokenVerifier,
  type ServiceAnswer,
} from '@sleepweave/service-kit';
import type { FastifyRequest } from 'fastify';
import type { RevocationList } from './revocations.ts';
import type { RoleChanges } from './role-changes.ts';

export interface ResolvedSession {
  claims: AccessTokenClaims;
  accessToken: string;
  /** When the access token expires (epoch seconds). */
  expiresAt: number;
  /**
   * Set when the access token was renewed from the refresh cookie: send it back as a
   * cookie, and the refresh token that replaced the one used (rotation), when there is one.
   */
  renewed?: { accessToken: string; maxAgeSeconds: number; refresh?: { token: string; maxAgeSeconds: number } };
}

export interface SessionResolver {
  /**
   * `rotate: false` (a WebSocket handshake, which cannot set cookies): renew the access
   * token without rotating the refresh token.
   */
  resolve(request: FastifyRequest, options?: { rotate?: boolean }): Promise<ResolvedSession | null>;
}

/**
 * The caller's session from her cookies: a valid, unrevoked access token; else, when
 * only the refresh cookie is left, a new access token from identity (a named internal
 * call: the gateway cannot judge a refresh token itself).
 */
export function createSessionResolver(options: {
  verifier: AccessTokenVerifier;
  revocations: RevocationList;
  /** Recent role changes: a cookie's token with a role she no longer has is renewed (absent: none followed). */
  roleChanges?: RoleChanges;
  identityUrl: string;
  /** The deployment's internal token (identity's /internal routes ask for it). */
  internalToken: string;
  /** The session cookies' names (`sessionCookieNames` of the app's address: `__Host-` over https). */
  cookieNames: { access: string; refresh: string };
}): SessionResolver {
  const { verifier, revocations, roleChanges, identityUrl, internalToken } = options;
  const names = options.cookieNames;

  async function verified(token: string): Promise<{ claims: AccessTokenClaims; expiresAt: number } | null> {
    try {
      const { sub, sid, role, exp } = await verifier(token);
      return revocations.isRevoked(sid) ? null : { claims: { sub, sid, role }, expiresAt: exp };
    } catch (err) {
      // identity's keys cannot be fetched: neither good nor bad (a 401 would sign her out)
      if (err instanceof KeysUnavailable) throw unavailable();
      return null;
    }
  }

  return {
    async resolve(request, options = {}) {
      const accessToken = request.cookies[names.access];
      if (accessToken) {
        const valid = await verified(accessToken);
        // Signed before her role changed: renewed below (identity signs her current role),
        // never used. A freshly renewed token is taken as identity signed it.
        const stale = valid !== null && roleChanges?.isStale(valid.claims.sub, valid.claims.role) === true;
        if (valid && !stale) return { ...valid, accessToken };
      }
      const refreshToken = request.cookies[names.refresh];
      if (!refreshToken) return null;
      // Not one identity could have made (planted, or mangled): no session, without asking
      // identity, which would refuse it as a bad request, not as an ended session.
      if (!REFRESH_TOKEN_SHAPE.test(refreshToken)) return null;
      let answer: ServiceAnswer;
      try {
        answer = await callService(new URL('/internal/session/refresh', identityUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-correlation-id': request.correlationId, ...internalHeaders(internalToken) },
          body: JSON.stringify({ refreshToken, rotate: options.rotate ?? true } satisfies SessionRefreshRequest),
          timeoutMs: 5_000,
        });
      } catch (err) {
        request.log.error({ err }, 'identity unreachable for a session renewal');
        throw unavailable();
      }
      if (!isSuccess(answer)) {
        if (answer.status === 401) return null;
        request.log.error({ status: answer.status }, 'identity refused a session renewal');
        throw unavailable();
      }
      const body = SessionRefreshResponse.parse(JSON.parse(answer.body));
      const valid = await verified(body.accessToken);
      if (!valid) return null;
      return {
        ...valid,
        accessToken: body.accessToken,
        renewed: { accessToken: body.accessToken, maxAgeSeconds: body.expiresIn, ...(body.refresh ? { refresh: body.refresh } : {}) },
      };
    },
  };
}

/** identity's refresh tokens: 32 random bytes in base64url (43 characters); a little room kept. */
const REFRESH_TOKEN_SHAPE = /^[\w-]{16,200}$/;

const unavailable = () => new HttpError(503, 'unavailable', TEMPORARILY_UNAVAILABLE_MESSAGE);
