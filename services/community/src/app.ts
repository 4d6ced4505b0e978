import { registerRateLimits, type ServiceApp } from '@sleepweave/service-kit';
import type { CommunityContext } from './context.ts';
import { membershipRoutes } from './memberships/routes.ts';
import { statsRoutes } from './stats/routes.ts';
import { threadRoutes } from './threads/routes.ts';

/** The community HTTP plugin: registers routes; never listens. */
export async function communityApp(app: ServiceApp, ctx: CommunityContext): Promise<void> {
  // Limits are set per route (new threads, messages; see rate-limits.ts); in memory per instance.
  await registerRateLimits(app);
  await threadRoutes(app, ctx);
  await membershipRoutes(app, ctx);
  await statsRoutes(app, ctx);
}
