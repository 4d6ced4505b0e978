import { registerRateLimits, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import { consentRoutes } from './consents/routes.ts';
import type { StudyContext } from './context.ts';
import { sleepExportRoutes } from './sleep-exports/routes.ts';
import { sleepLogRoutes } from './sleep-logs/routes.ts';

/** The study HTTP plugin: registers routes; never listens. Every route is hers alone. */
export async function studyApp(app: ServiceApp, ctx: StudyContext): Promise<void> {
  // Signed in before anything else (a 401, not a 400 for a body nobody may send).
  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });
  await registerRateLimits(app);
  await consentRoutes(app, ctx);
  await sleepLogRoutes(app, ctx);
  await sleepExportRoutes(app, ctx);
}
