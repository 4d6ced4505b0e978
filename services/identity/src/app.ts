import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { ServiceApp } from '@sleepweave/service-kit';
import type { IdentityContext } from './context.ts';
import { sessionRoutes } from './sessions/routes.ts';
import { userRoutes } from './users/routes.ts';

/** The identity HTTP plugin: registers plugins and routes; never listens. */
export async function identityApp(app: ServiceApp, ctx: IdentityContext): Promise<void> {
  await app.register(cookie);
  // Limits are set per route (sign-in, registration); in-memory per instance.
  await app.register(rateLimit, { global: false });
  await userRoutes(app, ctx);
  await sessionRoutes(app, ctx);
}
