import type { Logger } from 'pino';
import { createEventStore, type EventStore } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import { auditProjection } from './admin/projections.ts';
import type { ResearchExportConfig } from './config.ts';
import { participantsProjection } from './participants/projections.ts';
import { runsProjection } from './runs/projections.ts';

/** What the research-export slices share: one event store with its inline projections. */
export interface ResearchExportContext {
  config: ResearchExportConfig;
  sql: Sql;
  store: EventStore;
  logger: Logger;
  /** Tells the run worker to look now (set once it runs; before, the worker's poll finds the run). */
  wakeRunWorker: () => void;
}

export const researchExportProjections = [participantsProjection, runsProjection, auditProjection];

export function createResearchExportContext(deps: { config: ResearchExportConfig; sql: Sql; logger: Logger }): ResearchExportContext {
  return { ...deps, store: createEventStore(deps.sql, { projections: researchExportProjections }), wakeRunWorker: () => {} };
}
