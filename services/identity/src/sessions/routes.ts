import {
  AuthResponse,
  LoginRequest,
  MessageResponse,
  sessionCookieNames,
  SessionRefreshRequest,
  SessionRefreshResponse,
} from '@sleepweave/contracts';
import { HttpError, requestMetadata, tooManyRequests, unauthorized, type ServiceApp } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { decoyPasswordHash, verifyPassword } from '../users/passwords.ts';
import { findUserByEmail, toUser } from '../users/queries.ts';
import { openSession, PasswordChangedMeanwhile, refreshSession, revokeSession, type IssuedSession } from './commands.ts';
import { clearSessionCookies, setSessionCookies } from './cookies.ts';
import { clearLoginFailures, loginClient, reserveLoginAttempt } from './login-limits.ts';
import { findActiveSession } from './queries.ts';
import { signAccessToken } from './tokens.ts';

const INVALID_CREDENTIALS = 'Invalid email or password';
const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts. Please wait a few minutes and try again.';

export async function sessionRoutes(app: ServiceApp, ctx: IdentityContext): Promise<void> {
  const decoyHash = await decoyPasswordHash();

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return ctx.keys.jwks;
  });

  app.post(
    '/api/login',
    {
      schema: { body: LoginRequest, response: { 200: AuthResponse } },
      config: {
        rateLimit: {
          max: ctx.config.LOGIN_RATE_LIMIT_PER_IP,
          timeWindow: '1 minute',
          errorResponseBuilder: () => new HttpError(429, 'too_many_requests', TOO_MANY_ATTEMPTS),
        },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const limits = {
        perClient: ctx.config.LOGIN_FAILURES_PER_ACCOUNT,
        perAccount: ctx.config.LOGIN_FAILURES_PER_ACCOUNT_ALL_CLIENTS,
        windowMinutes: ctx.config.LOGIN_FAILURE_WINDOW_MINUTES,
      };
      if (!(await reserveLoginAttempt(ctx.sql, { email, client: loginClient(request.ip) }, limits))) {
        throw tooManyRequests(TOO_MANY_ATTEMPTS);
      }

      const user = await findUserByEmail(ctx.sql, email);
      const passwordMatches = await verifyPassword(user?.password_hash ?? decoyHash, password);
      if (!user || !passwordMatches) {
        // not whether the account exists: the log would tell who is registered, which no answer does
        request.log.info('sign-in refused');
        throw unauthorized(INVALID_CREDENTIALS);
      }
      await clearLoginFailures(ctx.sql, email);
      let session: IssuedSession;
      try {
        session = await openSession(ctx, { id: user.id, role: user.role, passwordHash: user.password_hash }, requestMetadata(request));
      } catch (err) {
        // the password she gave was replaced while it was being checked: it is no longer hers
        if (err instanceof PasswordChangedMeanwhile) throw unauthorized(INVALID_CREDENTIALS);
        throw err;
      }
      setSessionCookies(reply, ctx, session);
      return { message: 'You have successfully logged in.', user: toUser(user) };
    },
  );

  app.post('/api/logout', { schema: { response: { 200: MessageResponse } } }, async (request, reply) => {
    // The session to end: the one in the verified access token, else the refresh cookie's.
    let sessionId = request.user?.sid;
    const refreshToken = request.cookies[sessionCookieNames(ctx.config.APP_URL).refresh];
    if (!sessionId && refreshToken) sessionId = (await findActiveSession(ctx.sql, refreshToken))?.id;
    if (sessionId) await revokeSession(ctx, sessionId, 'logout', requestMetadata(request));
    clearSessionCookies(reply, ctx);
    return { message: 'Logged out.' };
  });

  /**
   * Internal (the gateway does not route /internal): trades a refresh token for a new
   * access token, and for a new refresh token (rotation), while its session is active. The
   * gateway calls it when the short-lived access token has expired; a retired refresh token
   * presented again ends the session (docs/decisions.md).
   */
  app.post(
    '/internal/session/refresh',
    { schema: { body: SessionRefreshRequest, response: { 200: SessionRefreshResponse } } },
    async (request) => {
      const now = ctx.clock();
      const { refreshToken, rotate } = request.body;
      const outcome = await refreshSession(ctx, refreshToken, requestMetadata(request), { rotate, now });
      if (outcome.kind === 'refused') throw unauthorized('Your session has ended. Please sign in again.');
      const { userId, sessionId, role } = outcome;
      // never beyond its session's end: a session that expired is left out of the revocations
      // of a reset or a deletion, and a token outliving it would outlive those too
      const sessionLeftSeconds = Math.floor((outcome.expiresAt.getTime() - now.getTime()) / 1000);
      const ttl = Math.max(1, Math.min(ctx.config.ACCESS_TOKEN_TTL_SECONDS, sessionLeftSeconds));
      const accessToken = await signAccessToken(ctx.keys, { userId, sessionId, role }, ttl, now);
      const refresh =
        outcome.kind === 'rotated'
          ? { token: outcome.refreshToken, maxAgeSeconds: Math.max(0, Math.floor((outcome.expiresAt.getTime() - now.getTime()) / 1000)) }
          : undefined;
      return { accessToken, expiresIn: ttl, sessionId, userId, refresh };
    },
  );
}
