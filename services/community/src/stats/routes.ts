import { CommunityStats, DEFAULT_TIMEZONE } from '@sleepweave/contracts';
import { findDirectoryUser, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { CommunityContext } from '../context.ts';
import { communityStats } from './queries.ts';

export async function statsRoutes(app: ServiceApp, ctx: CommunityContext): Promise<void> {
  /** "Today" is the viewer's day: her timezone from user_directory (the default until it is known). */
  app.get('/api/community/stats', { schema: { response: { 200: CommunityStats } } }, async (request) => {
    const { sub } = requireUser(request);
    const timezone = (await findDirectoryUser(ctx.sql, sub))?.timezone ?? DEFAULT_TIMEZONE;
    return communityStats(ctx.sql, { now: new Date(), timezone });
  });
}
