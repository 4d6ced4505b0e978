import { registerRateLimits, type ServiceApp } from '@sleepweave/service-kit';
import type { JournalContext } from './context.ts';
import { entryRoutes } from './entries/routes.ts';
import { journalExportRoutes } from './journal-exports/routes.ts';

/** The journal HTTP plugin: registers routes; never listens. */
export async function journalApp(app: ServiceApp, ctx: JournalContext): Promise<void> {
  await registerRateLimits(app);
  await entryRoutes(app, ctx);
  await journalExportRoutes(app, ctx);
}
