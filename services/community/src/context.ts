import type { Bus } from '@sleepweave/bus';
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
  /** For notices not stored as events (users/user-deleted.ts); absent for a rebuild. */
  bus?: Pick<Bus, 'publish'>;
}

export const communityProjections = [threadsProjection, membershipsProjection, studyParticipantsProjection];

export function createCommunityContext(deps: {
  config: CommunityConfig;
  sql: Sql;
  logger: Logger;
  bus?: Pick<Bus, 'publish'>;
}): CommunityContext {
  return { ...deps, store: createEventStore(deps.sql, { projections: communityProjections }) };
}
