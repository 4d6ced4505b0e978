import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { AuthResponse, AuthUser, RegisterRequest, User } from '@sleepweave/contracts';
import { conflict, requireUser, unauthorized, type ServiceApp } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { ARGON2_OPTIONS } from '../sessions/routes.ts';
import { openSession, setSessionCookies } from '../sessions/session-service.ts';
import { userDecider } from './business-logic.ts';
import { findUserById, toAuthUser, toUser } from './queries.ts';
import { userStreamId } from './user.ts';

const EMAIL_TAKEN = 'An account with this email already exists.';

function isEmailTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint_name?: string };
  return e.code === '23505' && e.constraint_name === 'users_email_key';
}

export async function userRoutes(app: ServiceApp, ctx: IdentityContext): Promise<void> {
  app.post(
    '/api/register',
    {
      schema: { body: RegisterRequest, response: { 201: AuthResponse } },
      config: { rateLimit: { max: 10, timeWindow: '10 minutes' } },
    },
    async (request, reply) => {
      const { email, password, firstName, lastName, dateOfBirth, timezone, hormonalStage } = request.body;
      const userId = randomUUID();
      const role = ctx.config.ADMIN_EMAILS.includes(email) ? 'admin' : 'participant';
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
}
