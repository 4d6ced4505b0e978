import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@sleepweave/service-kit';
import { seedLibrary } from './articles/seed.ts';
import { libraryApp } from './app.ts';
import type { LibraryConfig } from './config.ts';
import { createLibraryContext, libraryProjections, type LibraryContext } from './context.ts';
import { toIntegration } from './integration/publishers.ts';
import { onUserDeleted } from './users/user-deleted.ts';

/** The library service: articles (cards), full-text search, the articles' images. */
export const libraryService: ServiceDefinition<LibraryConfig, LibraryContext> = {
  name: 'library',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  streams: ['LIBRARY', 'IDENTITY'],
  context: (deps) => createLibraryContext(deps),
  projections: libraryProjections,
  // The seed articles are published once, on the first start (see articles/seed.ts).
  onStart: async (ctx) => {
    const published = await seedLibrary(ctx);
    if (published > 0) ctx.logger.info({ published }, 'library seeded');
  },
  routes: libraryApp,
  toIntegration,
  onUserDeleted,
};
