import type { Logger } from 'pino';
import { createEventStore, type EventStore } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import { libraryCardsProjection } from './articles/projections.ts';
import { loadImages, type ImageLibrary } from './articles/images.ts';
import type { LibraryConfig } from './config.ts';

/** What the library slices share: one event store with the cards projection, the images. */
export interface LibraryContext {
  config: LibraryConfig;
  sql: Sql;
  store: EventStore;
  logger: Logger;
  images: ImageLibrary;
}

export const libraryProjections = [libraryCardsProjection];

export async function createLibraryContext(deps: { config: LibraryConfig; sql: Sql; logger: Logger }): Promise<LibraryContext> {
  return { ...deps, store: createEventStore(deps.sql, { projections: libraryProjections }), images: await loadImages() };
}
