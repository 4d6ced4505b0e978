import type { Logger } from 'pino';
import { createEventStore, type EventStore } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import type { JournalConfig } from './config.ts';
import { journalEntriesProjection } from './entries/projections.ts';

/** What the journal slices share: one event store with its inline projection. */
export interface JournalContext {
  config: JournalConfig;
  sql: Sql;
  store: EventStore;
  logger: Logger;
}

export const journalProjections = [journalEntriesProjection];

export function createJournalContext(deps: { config: JournalConfig; sql: Sql; logger: Logger }): JournalContext {
  return { ...deps, store: createEventStore(deps.sql, { projections: journalProjections }) };
}
