import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import {
  AuthResponse,
  AuthUser,
  ChangePasswordRequest,
  MessageResponse,
  RegisterRequest,
  UpdateProfileRequest,
  User,
} from '@sleepweave/contracts';
import { conflict, HttpError, requireUser, unauthorized, type ServiceApp } from '@sleepweave/service-kit';
import type { FastifyRequest } from 'fastify';
import type { IdentityContext } from '../context.ts';
import { ARGON2_OPTIONS } from '../sessions/routes.ts';
import { openSession, revokeUserSessions, setSessionCookies } from '../sessions/session-service.ts';
import { UserNotFound, userDecider } from './business-logic.ts';
import { findUserById, toAuthUser, toUser } from './queries.ts';
import { userStreamId } from './user.ts';

const EMAIL_TAKEN = 'An account with this email already exists.';
export const PASSWORD_CHANGED = 'Your password has been changed. You have been signed out on your other devices.';

/** A wrong password where she confirms an action: 403 (a 401 would sign her out in the app). */
export const wrongPassword = (message: string) => new HttpError(403, 'wrong_password', message);

/** Limits for actions that check a password (argon2): per signed-in user, else per IP. */
export const perUserLimit = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: '15 minutes',
    keyGenerator: (request: FastifyRequest) => request.user?.sub ?? request.ip,
    errorResponseBuilder: () => new HttpError(429, 'too_many_requests', 'Too many attempts. Please wait a few minutes and try again.'),
  },
});

function isEmailTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint_name?: string };
  return e.code === '23505' && e.constraint_name === 'users_email_key';
}

export async function userRoutes(app: ServiceApp, ctx: IdentityContext): Promise<void> {
  app.post(
    '/api/register',
    {
      schema: { body: RegisterRequest, response: { 201: AuthResponse } },
      config: {
        rateLimit: {
          max: ctx.config.REGISTER_RATE_LIMIT_PER_IP,
          timeWindow: '10 minutes',
          errorResponseBuilder: () =>
            new HttpError(429, 'too_many_requests', 'Too many new accounts from here. Please wait a few minutes and try again.'),
        },
      },
    },
    async (request, reply) => {
      const { email, password, firstName, lastName, dateOfBirth, timezone, hormonalStage } = request.body;
      const userId = randomUUID();
      // Never admin at sign-up: without e-mail verification, whoever registers a listed
      // address first would get admin rights (ADMIN_EMAILS applies at start, to accounts
      // that exist; docs/decisions.md).
      const role = 'participant' as const;
      const passwordHash = await hash(password, ARGON2_OPTIONS);
      const metadata = { correlationId: request.correlationId, userId };
      try {
        await ctx.store.handle(
          userStreamId(userId),
          userDecider,
          {
            type: 'RegisterUser',
            data: { userId, email, passwordHash, firstName, lastName, dateOfBirth, timezone, hormonalStage, role, now: new Date() },
          },
          { metadata },
        );
      } catch (err) {
        if (isEmailTaken(err)) throw conflict(EMAIL_TAKEN);
        throw err;
      }
      const row = (await findUserById(ctx.sql, userId))!;
      const session = await openSession(ctx, { id: userId, role }, metadata);
      setSessionCookies(reply, ctx, session);
      return reply.status(201).send({ message: 'Account created successfully! Redirecting...', user: toUser(row) });
    },
  );

  app.get('/api/user', { schema: { response: { 200: User } } }, async (request) => {
    const row = await findUserById(ctx.sql, requireUser(request).sub);
    if (!row) throw unauthorized();
    return toUser(row);
  });

  app.get('/api/auth/user', { schema: { response: { 200: AuthUser } } }, async (request) => {
    const row = await findUserById(ctx.sql, requireUser(request).sub);
    if (!row) throw unauthorized();
    return toAuthUser(row);
  });

  /** Her settings: names, timezone, hormonal stage (identity.user.profile_updated for the others). */
  app.put('/api/profile', { schema: { body: UpdateProfileRequest, response: { 200: User } } }, async (request) => {
    const { sub } = requireUser(request);
    try {
      await ctx.store.handle(
        userStreamId(sub),
        userDecider,
        { type: 'UpdateProfile', data: { userId: sub, ...request.body, now: ctx.clock() } },
        { metadata: { correlationId: request.correlationId, userId: sub } },
      );
    } catch (err) {
      if (err instanceof UserNotFound) throw unauthorized();
      throw err;
    }
    const row = await findUserById(ctx.sql, sub);
    if (!row) throw unauthorized();
    return toUser(row);
  });

  /** A new password with the current one; her other sessions end, this one stays. */
  app.post(
    '/api/account/password',
    { schema: { body: ChangePasswordRequest, response: { 200: MessageResponse } }, config: perUserLimit(10) },
    async (request) => {
      const { sub, sid } = requireUser(request);
      const row = await findUserById(ctx.sql, sub);
      if (!row) throw unauthorized();
      if (!(await verify(row.password_hash, request.body.currentPassword))) {
        throw wrongPassword('Your current password is not correct.');
      }
      const passwordHash = await hash(request.body.newPassword, ARGON2_OPTIONS);
      const now = ctx.clock();
      const metadata = { correlationId: request.correlationId, userId: sub };
      try {
        await ctx.store.transaction(async (tx) => {
          await ctx.store.handle(
            userStreamId(sub),
            userDecider,
            { type: 'ChangePassword', data: { userId: sub, passwordHash, now } },
            { tx, metadata },
          );
          await revokeUserSessions(ctx, tx, sub, 'password_changed', { metadata, now, keep: sid });
        });
      } catch (err) {
        if (err instanceof UserNotFound) throw unauthorized();
        throw err;
      }
      return { message: PASSWORD_CHANGED };
    },
  );
}
