import { registerRateLimits, type ServiceApp } from '@sleepweave/service-kit';
import { adminRoutes } from './admin/routes.ts';
import type { ResearchExportContext } from './context.ts';
import { personalRoutes } from './personal/routes.ts';
import { runRoutes } from './runs/routes.ts';

/** The research-export HTTP plugin: registers routes; never listens. */
export async function researchExportApp(app: ServiceApp, ctx: ResearchExportContext): Promise<void> {
  await registerRateLimits(app);
  await runRoutes(app, ctx);
  await personalRoutes(app, ctx);
  await adminRoutes(app, ctx);
}
