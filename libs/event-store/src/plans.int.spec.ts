import postgres from 'postgres';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIntegrationHistory } from './history.ts';
import { applyBatchOnce, applyOnce, pruneInbox } from './inbox.ts';
import { migrateEventStore } from './migrate.ts';
import { listeningOptions, relayBacklogMs, startRelay } from './relay.ts';
import { createEventStore } from './store.ts';
import { createTestDatabase, eventually, testLogger, type TestDatabase } from './test-support.ts';
import type { Sql } from './types.ts';

/**
 * The event store's statements as PostgreSQL runs them once a service has run them a few
 * times: postgres.js prepares every statement, and from its sixth run PostgreSQL may keep a
 * generic plan, made without the parameters' values. A range on a parameter is then
 * estimated at a third of the table, and a plan that would use an index for the value at
 * hand can scan the whole table instead, on every run: a cost that grows with the events
 * stored (the relay's check for events held back read all of them after every short batch:
 * 0.7 ms a cycle with some 10,000 events stored, 15 ms at 100,000; bench/growth.bench.ts).
 */

const EVENTS = 20_000;
let db: TestDatabase;

interface Recorded {
  query: string;
  params: unknown[];
  /** The parameters' type oids as postgres.js sent them (0: left to the server). */
  types: number[];
}

/** A client of one connection that records each statement it sends (the last parameters of each). */
function recording(url: string, into: Map<string, Recorded>, options: postgres.Options<Record<string, never>> = {}): Sql {
  return postgres(url, {
    max: 1,
    onnotice: () => undefined,
    ...options,
    debug: (_connection, query, params, types) =>
      void into.set(query, { query, params: [...(params as unknown[])], types: [...(types as number[])] }),
  }) as unknown as Sql;
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

/** The tables a plan reads whole (sequential scans), by name. */
function scannedTables(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scannedTables)];
}

/**
 * The plan of each statement as PostgreSQL keeps it after a few runs (its generic plan,
 * forced), from EXPLAIN of the statement prepared with its parameters' types and executed
 * with the values it was last sent.
 */
async function genericPlans(url: string, statements: Iterable<Recorded>): Promise<{ query: string; scans: string[] }[]> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await sql`set plan_cache_mode = force_generic_plan`;
    const plans: { query: string; scans: string[] }[] = [];
    let n = 0;
    for (const { query, params, types } of statements) {
      if (!/^\s*(select|insert|update|delete|with)\b/i.test(query)) continue; // begin, listen, ...: nothing to plan
      const name = `statement_${(n += 1)}`;
      // the types sent, the others inferred by the server as it does for the client (`unknown`)
      const sent = params.map((_, i) => (types[i] ? `${types[i]}::oid::regtype` : `'unknown'::regtype`));
      const [declared] = await sql.unsafe<{ list: string }[]>(`select concat_ws(', ', ${['null', ...sent].join(', ')}) as list`);
      // simple protocol: in an extended one's statement, $1 would be that statement's own
      await sql.unsafe(`prepare ${name} ${params.length ? `(${declared!.list})` : ''} as ${query}`).simple();
      const [inferred] = await sql<{ types: string[] }[]>`
        select parameter_types::text[] as types from pg_prepared_statements where name = ${name}`;
      const typeNames = inferred!.types;
      const literal = (value: unknown): string =>
        value instanceof Date
          ? value.toISOString()
          : Array.isArray(value)
            ? `{${value.map((item) => JSON.stringify(literal(item))).join(',')}}`
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value);
      const args = params
        .map(
          (value, i) => `${value === null || value === undefined ? 'null' : `'${literal(value).replaceAll("'", "''")}'`}::${typeNames[i]}`,
        )
        .join(', ');
      const [row] = await sql
        .unsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`explain (format json) execute ${name}${args ? `(${args})` : ''}`)
        .simple();
      const [{ Plan: plan }] = row!['QUERY PLAN'];
      plans.push({ query: query.replace(/\s+/g, ' ').trim(), scans: scannedTables(plan) });
    }
    return plans;
  } finally {
    await sql.end();
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  await migrateEventStore(db.sql);
  await db.sql`
    insert into events (id, stream_id, stream_position, type, data, metadata)
    select gen_random_uuid(), 'bulk:' || g, 1, 'Bulk', '{}', jsonb_build_object('userId', gen_random_uuid())
    from generate_series(1, ${EVENTS}::int) g`;
  await db.sql`
    insert into inbox (consumer, event_id, processed_at)
    select 'consumer-' || (g % 5), gen_random_uuid(), now() - g * interval '1 minute' from generate_series(1, ${EVENTS}::int) g`;
  await db.sql`analyze events`;
  await db.sql`analyze inbox`;
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe("the event store's statements, with many events stored", () => {
  it("read the events table through its indexes under the plans PostgreSQL keeps (the relay's, the store's, history's)", async () => {
    const statements = new Map<string, Recorded>();

    // The store: a command (read, decide, append) and the reads.
    const storeSql = recording(db.url, statements);
    const store = createEventStore(storeSql);
    const streamId = `plan:${randomUUID()}`;
    await store.appendToStream(streamId, [{ type: 'Noted', data: { n: 1 } }], { expectedVersion: 'no_stream' });
    const decider = {
      initialState: () => 0,
      evolve: (n: number) => n + 1,
      decide: () => [{ type: 'Noted', data: { n: 2 } }],
    };
    await store.handle(streamId, decider, {});
    await store.handle(streamId, { ...decider, evolvesOn: ['Noted'] }, {});
    await store.readStream(streamId);
    // a deleted user's streams, by the prefix of their ids (renamed, or deleted), and her id in others' metadata
    const renamed = `plan:${randomUUID()}`;
    expect(await store.renameStreamsByPrefix(streamId.slice(0, -4), renamed.slice(0, -4), { data: { n: null } })).toBe(3);
    expect(await store.deleteStreamsByPrefix(renamed.slice(0, -4))).toBe(3);
    expect(await store.eraseUserFromMetadata(randomUUID())).toBe(0);
    await relayBacklogMs(storeSql);
    await readIntegrationHistory(storeSql, { after: '0:0', limit: 100, types: ['identity.session.revoked'], toIntegration: () => null });
    await storeSql.end();

    // The relay: through every event to the last, then one cycle more with nothing left to
    // read (its checks after a short batch, whatever the last batch was).
    const [last] = await db.sql<{ position: string }[]>`select max(global_position)::text as position from events`;
    const relay = startRelay({
      connect: (events) => recording(db.url, statements, listeningOptions(events)),
      bus: { publish: async () => undefined },
      source: 'identity',
      toIntegration: () => null,
      logger: testLogger(),
    });
    try {
      await eventually(() => relay.status().checkpoint?.globalPosition === last!.position, 30_000);
      const { lastCycleAt } = relay.status();
      await delay(5); // a cycle ending later has a later time (ms)
      relay.wake();
      await eventually(() => relay.status().lastCycleAt > lastCycleAt);
    } finally {
      await relay.stop();
    }

    const plans = await genericPlans(db.url, statements.values());
    expect(plans.length).toBeGreaterThan(8);
    expect(plans.filter((plan) => plan.scans.includes('events'))).toEqual([]);
  }, 60_000);

  it('read the inbox through its indexes (applying an event, and the pruning)', async () => {
    const statements = new Map<string, Recorded>();
    const sql = recording(db.url, statements);
    try {
      const envelope = { id: randomUUID() } as Parameters<typeof applyOnce>[2];
      await applyOnce(sql, 'consumer-1', envelope, async () => undefined);
      await applyBatchOnce(sql, 'consumer-2', [envelope, { ...envelope, id: randomUUID() }], async () => undefined);
      // the oldest tenth goes, in batches
      expect(await pruneInbox(sql, { before: new Date(Date.now() - EVENTS * 0.9 * 60_000), batchSize: 500 })).toBeGreaterThan(1_000);
    } finally {
      await sql.end();
    }
    const plans = await genericPlans(db.url, statements.values());
    expect(plans.length).toBeGreaterThanOrEqual(3);
    expect(plans.filter((plan) => plan.scans.includes('inbox'))).toEqual([]);
  }, 60_000);
});
