import type { Logger } from 'pino';
import { createEventStore, type EventStore } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import type { CommunityConfig } from './config.ts';
import { membershipsProjection } from './memberships/projections.ts';
import { studyParticipantsProjection } from './study-completions/projections.ts';
import { threadsProjection } from './threads/projections.ts';

/** What the community slices share: one event store with the inline projections. */
export interface CommunityContext {
  config: CommunityConfig;
  sql: Sql;
  store: EventStore;
  logger: Logger;
}

export const communityProjections = [threadsProjection, membershipsProjection, studyParticipantsProjection];

export function createCommunityContext(deps: { config: CommunityConfig; sql: Sql; logger: Logger }): CommunityContext {
  return { ...deps, store: createEventStore(deps.sql, { projections: communityProjections }) };
}
