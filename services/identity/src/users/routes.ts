import { randomUUID } from 'node:crypto';
import {
  AuthResponse,
  AuthUser,
  ChangePasswordRequest,
  MessageResponse,
  RegisterRequest,
  UpdateProfileRequest,
  User,
} from '@sleepweave/contracts';
import { clientAddress, HttpError, requestMetadata, requireUser, unauthorized, type ServiceApp } from '@sleepweave/service-kit';
import type { FastifyRequest } from 'fastify';
import type { IdentityContext } from '../context.ts';
import { openSession, PasswordChangedMeanwhile } from '../sessions/commands.ts';
import { setSessionCookies } from '../sessions/cookies.ts';
import { changePassword, registerUser, updateProfile } from './commands.ts';
import { aboutHer, refuseWeakPassword } from './password-strength.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { findUserById, toAuthUser, toUser } from './queries.ts';

export const PASSWORD_CHANGED = 'Your password has been changed. You have been signed out on your other devices.';
export const PASSWORD_CHANGED_MEANWHILE =
  'Your password was changed meanwhile, in another tab or with a reset link, so the one you gave is no longer current. Nothing was changed now.';

/** A wrong password where she confirms an action: 403 (a 401 would sign her out in the app). */
export const wrongPassword = (message: string) => new HttpError(403, 'wrong_password', message);

/** Limits for actions that check a password (argon2): per signed-in user, else per IP. */
export const perUserLimit = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: '15 minutes',
    keyGenerator: (request: FastifyRequest) => request.user?.sub ?? clientAddress(request.ip),
    errorResponseBuilder: () => new HttpError(429, 'too_many_requests', 'Too many attempts. Please wait a few minutes and try again.'),
  },
});

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
            new HttpError(429, 'too_many_requests', 'Too many sign-up attempts from here. Please wait a few minutes and try again.'),
        },
      },
    },
    async (request, reply) => {
      const { email, password, firstName, lastName, dateOfBirth, timezone, hormonalStage } = request.body;
      await refuseWeakPassword(password, 'password', { email, firstName, lastName, dateOfBirth });
      const userId = randomUUID();
      const metadata = { ...requestMetadata(request), userId };
      const passwordHash = await hashPassword(password);
      await registerUser(
        ctx,
        { userId, email, passwordHash, firstName, lastName, dateOfBirth, timezone, hormonalStage, now: new Date() },
        metadata,
      );
      const row = (await findUserById(ctx.sql, userId))!;
      const session = await openSession(ctx, { id: userId, role: row.role }, metadata);
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

  app.put('/api/profile', { schema: { body: UpdateProfileRequest, response: { 200: User } } }, async (request) => {
    const { sub } = requireUser(request);
    await updateProfile(ctx, { userId: sub, ...request.body }, requestMetadata(request));
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
      if (!(await verifyPassword(row.password_hash, request.body.currentPassword))) {
        throw wrongPassword('Your current password is not correct.');
      }
      await refuseWeakPassword(request.body.newPassword, 'newPassword', aboutHer(row));
      const passwordHash = await hashPassword(request.body.newPassword);
      try {
        await changePassword(
          ctx,
          { userId: sub, verifiedHash: row.password_hash, passwordHash, keep: sid, now: ctx.clock() },
          requestMetadata(request),
        );
      } catch (err) {
        // changed or reset meanwhile (another tab, a reset link): the password she gave was
        // right when checked, so "not correct" misled her
        if (err instanceof PasswordChangedMeanwhile) throw new HttpError(409, 'conflict', PASSWORD_CHANGED_MEANWHILE);
        throw err;
      }
      return { message: PASSWORD_CHANGED };
    },
  );
}
