import type { Logger } from 'pino';
import { createEventStore, type EventStore } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import type { IdentityConfig } from './config.ts';
import { sessionsProjection } from './sessions/projections.ts';
import type { SigningKeys } from './sessions/tokens.ts';
import { usersProjection } from './users/projections.ts';

/** What the identity slices share: one event store with both inline projections. */
export interface IdentityContext {
  config: IdentityConfig;
  sql: Sql;
  store: EventStore;
  keys: SigningKeys;
  logger: Logger;
}

export const identityProjections = [usersProjection, sessionsProjection];

export function createIdentityContext(deps: { config: IdentityConfig; sql: Sql; logger: Logger }, keys: SigningKeys): IdentityContext {
  return { ...deps, keys, store: createEventStore(deps.sql, { projections: identityProjections }) };
}
