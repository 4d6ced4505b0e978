import type { StreamName } from '@sleepweave/bus';
import { rebuildConsumer, rebuildProjection, type HistorySource, type Tx } from '@sleepweave/event-store';
import type { EventEnvelope } from '@sleepweave/contracts';
import { streamOfConsumer } from './consumers.ts';
import type { Sql } from './database.ts';
import { consumersOf, type ServiceConfig, type ServiceDefinition } from './runtime.ts';

/** A read model of a service: a projection of its own events, or a consumer of another's. */
/** Read models asked for by a name the service does not have. */
export class UnknownReadModels extends Error {}

export interface ReadModel {
  name: string;
  kind: 'projection' | 'consumer';
  tables: readonly string[];
}

/** Every read model of a service, with the tables each one owns. */
export function readModelsOf<C extends ServiceConfig, Ctx>(definition: ServiceDefinition<C, Ctx>, ctx: Ctx): ReadModel[] {
  return [
    ...definition.projections.map((p) => ({ name: p.name, kind: 'projection' as const, tables: p.tables })),
    ...consumersOf(definition, ctx).map((c) => ({ name: c.name, kind: 'consumer' as const, tables: c.tables })),
  ];
}

/**
 * Rebuilds read models (all of them, or those named): a projection from the service's own
 * events, a consumer by replaying its producer's history (libs/event-store), then the
 * service's `afterRebuild`. Returns the number of events each one applied. Unknown names
 * throw before anything is touched.
 */
export async function rebuildReadModels<C extends ServiceConfig, Ctx>(
  definition: ServiceDefinition<C, Ctx>,
  ctx: Ctx,
  sql: Sql,
  history: (stream: StreamName) => HistorySource,
  names: readonly string[] = [],
): Promise<{ name: string; kind: ReadModel['kind']; events: number }[]> {
  const consumers = consumersOf(definition, ctx);
  const known = readModelsOf(definition, ctx).map((m) => m.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new UnknownReadModels(`Unknown read model(s): ${unknown.join(', ')}. Known: ${known.join(', ')}`);
  const chosen = (name: string) => names.length === 0 || names.includes(name);

  const results: { name: string; kind: ReadModel['kind']; events: number }[] = [];
  // Consumers first: a projection may read what a consumer keeps (e.g. her timezone).
  for (const consumer of consumers.filter((c) => chosen(c.name))) {
    const events = await rebuildConsumer(sql, {
      name: consumer.name,
      types: consumer.types,
      tables: consumer.tables,
      handle: consumer.handle as (tx: Tx, envelope: EventEnvelope) => Promise<void>,
      source: history(streamOfConsumer(consumer)),
    });
    results.push({ name: consumer.name, kind: 'consumer', events });
  }
  for (const projection of definition.projections.filter((p) => chosen(p.name))) {
    results.push({ name: projection.name, kind: 'projection', events: await rebuildProjection(sql, projection) });
  }
  if (results.length > 0) await definition.afterRebuild?.(ctx, sql);
  return results;
}
