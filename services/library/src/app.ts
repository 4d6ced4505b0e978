import type { ServiceApp } from '@sleepweave/service-kit';
import { imageRoutes } from './articles/images.ts';
import { articleRoutes } from './articles/routes.ts';
import type { LibraryContext } from './context.ts';

/** The library HTTP plugin: registers routes; never listens. */
export async function libraryApp(app: ServiceApp, ctx: LibraryContext): Promise<void> {
  await articleRoutes(app, ctx);
  await imageRoutes(app, ctx.images);
}
