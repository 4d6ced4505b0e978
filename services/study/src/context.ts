import type { Logger } from 'pino';
import { createEventStore, type EventStore } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import type { StudyConfig } from './config.ts';
import { consentsProjection } from './consents/projections.ts';
import { sleepLogsProjection } from './sleep-logs/projections.ts';

/** What the study slices share: one event store with the inline projections. */
export interface StudyContext {
  config: StudyConfig;
  sql: Sql;
  store: EventStore;
  logger: Logger;
}

export const studyProjections = [consentsProjection, sleepLogsProjection];

export function createStudyContext(deps: { config: StudyConfig; sql: Sql; logger: Logger }): StudyContext {
  return { ...deps, store: createEventStore(deps.sql, { projections: studyProjections }) };
}
