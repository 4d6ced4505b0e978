import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { ServiceApp } from '@sleepweave/service-kit';
import { accountDeletionRoutes } from './account-deletion/routes.ts';
import type { IdentityContext } from './context.ts';
import { passwordResetRoutes } from './password-reset/routes.ts';
import { sessionRoutes } from './sessions/routes.ts';
import { roleRoutes } from './users/role-routes.ts';
import { userRoutes } from './users/routes.ts';

/** The identity HTTP plugin: registers plugins and routes; never listens. */
export async function identityApp(app: ServiceApp, ctx: IdentityContext): Promise<void> {
  await app.register(cookie);
  // Limits are set per route (sign-in, registration, password reset ...); in-memory per instance.
  await app.register(rateLimit, { global: false });
  await userRoutes(app, ctx);
  await sessionRoutes(app, ctx);
  await passwordResetRoutes(app, ctx);
  await accountDeletionRoutes(app, ctx);
  await roleRoutes(app, ctx);
}
