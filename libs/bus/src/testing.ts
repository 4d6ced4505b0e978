import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes, randomUUID } from 'node:crypto';
import type { EventEnvelope, IntegrationEventData, IntegrationEventType } from '@sleepweave/contracts';
import { normalizePrefix } from './naming.ts';

/** Test helpers: random prefixes and cleanup of a test run's streams. */

/** A random bus prefix, e.g. `t1a2b3c4d`: streams `T1A2B3C4D_*`, subjects `t1a2b3c4d.*`. */
export function randomBusPrefix(): string {
  return `t${randomBytes(4).toString('hex')}`;
}

/** Deletes every stream of a (non-empty) prefix, with its consumers. Returns their names. */
export async function deleteStreamsOfPrefix(servers: string, prefix: string): Promise<string[]> {
  const p = normalizePrefix(prefix);
  if (!p) throw new Error('refusing to delete the streams of the empty (production) prefix');
  const nc = await connect({ servers: servers.split(',').map((s) => s.trim()) });
  try {
    const jsm = await jetstreamManager(nc);
    const deleted: string[] = [];
    for await (const name of jsm.streams.names()) {
      if (name.startsWith(`${p.toUpperCase()}_`)) {
        await jsm.streams.delete(name);
        deleted.push(name);
      }
    }
    return deleted;
  } finally {
    await nc.close();
  }
}

/** Empties every stream of a (non-empty) prefix, as if its messages had aged out. Returns how many messages went. */
export async function purgeStreamsOfPrefix(servers: string, prefix: string): Promise<number> {
  const p = normalizePrefix(prefix);
  if (!p) throw new Error('refusing to purge the streams of the empty (production) prefix');
  const nc = await connect({ servers: servers.split(',').map((s) => s.trim()) });
  try {
    const jsm = await jetstreamManager(nc);
    let purged = 0;
    for await (const name of jsm.streams.names()) {
      if (name.startsWith(`${p.toUpperCase()}_`)) purged += (await jsm.streams.purge(name)).purged;
    }
    return purged;
  } finally {
    await nc.close();
  }
}

/** An envelope for tests: a fresh id, `source` from the type's context, now as the time. */
export function testEnvelope<T extends IntegrationEventType>(
  type: T,
  data: IntegrationEventData<T>,
  overrides: Partial<Omit<EventEnvelope<T>, 'type' | 'data'>> = {},
): EventEnvelope<T> {
  const id = randomUUID();
  return {
    id,
    type,
    version: 1,
    source: type.split('.')[0]!,
    subject: `test:${id}`,
    time: new Date().toISOString(),
    correlationId: null,
    causationId: null,
    data,
    ...overrides,
  } as EventEnvelope<T>;
}
