import { randomBytes } from 'node:crypto';
import { connectBus, streamOfType, type StreamName } from '@sleepweave/bus';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { EventEnvelope, IntegrationEventData } from '@sleepweave/contracts';
import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { emptyHistory, lockStream, type HistorySource, type Tx } from '@sleepweave/event-store';
import type { BaseConfig } from './config.ts';
import { dropDatabase, type Sql } from './database.ts';
import { historyFromConfig } from './internal.ts';
import { rebuildReadModels, readModelsOf } from './rebuild.ts';
import type { ConsumerDefinition } from './consumers.ts';
import { consumersOf, databaseName, startService, type RunningService, type ServiceConfig, type ServiceDefinition } from './runtime.ts';
import { createLogger, type Logger } from './logger.ts';

/**
 * Settings for one test file: its own database names and bus prefix, quiet logs.
 * Tests never share state, so they can run in any order and side by side.
 */
export function testEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const id = randomBytes(4).toString('hex');
  return {
    ...process.env,
    DB_PREFIX: `sw_test_${id}_`,
    BUS_PREFIX: `t${id}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    INTERNAL_TOKEN: `test-internal-token-${randomBytes(12).toString('hex')}`,
    ...overrides,
  };
}

export interface TestService<C extends ServiceConfig, Ctx> extends RunningService<C, Ctx> {
  definition: ServiceDefinition<C, Ctx>;
  /** Where its consumers read their producers' history. */
  history: (stream: StreamName) => HistorySource;
  /** Stops the service, drops its database and deletes its streams. */
  cleanup(): Promise<void>;
}

export interface TestServiceOptions {
  background?: boolean;
  listen?: boolean;
  /** Default: the service's own logger at the config's LOG_LEVEL. */
  logger?: Logger;
  /**
   * Where its consumers read a producer's history before following the bus. `none`
   * (default): producers with no history, for tests that publish on the bus themselves;
   * `http`: the producers' internal routes at the URLs of the config (real services).
   */
  history?: 'none' | 'http' | ((stream: StreamName) => HistorySource);
}

/** Starts a service the way production does; by default without listening (use app.inject). */
export async function startTestService<C extends ServiceConfig, Ctx>(
  definition: ServiceDefinition<C, Ctx>,
  config: C,
  options: TestServiceOptions = {},
): Promise<TestService<C, Ctx>> {
  const chosen = options.history ?? 'none';
  const history = chosen === 'none' ? (stream: StreamName) => emptyHistory(stream) : chosen === 'http' ? historyFromConfig(config) : chosen;
  const running = await startService(definition, config, {
    listen: options.listen ?? false,
    handleSignals: false,
    background: options.background ?? true,
    history,
    logger: options.logger ?? createLogger(definition.name, config.LOG_LEVEL),
  });
  return {
    ...running,
    definition,
    history,
    async cleanup() {
      await running.stop();
      await dropDatabase(config.DATABASE_URL, databaseName(config, definition.name));
      await deleteStreamsOfPrefix(config.NATS_URL, config.BUS_PREFIX);
    },
  };
}

/** Every row of the given tables, each table's rows in a stable order. */
export async function snapshotTables(sql: Sql, tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const table of [...tables].sort()) {
    const rows = await sql`select * from ${sql(table)}`;
    snapshot[table] = rows
      .map((row) => JSON.parse(JSON.stringify(row)) as unknown)
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return snapshot;
}

/**
 * Rebuilds every read model of a running service (projections from its events, consumers
 * from their producers' history) and returns its tables before and after: a test expects
 * them equal. Run it when the service is idle (its consumers have applied what was sent).
 */
export async function rebuildAndSnapshot<C extends ServiceConfig, Ctx>(
  service: TestService<C, Ctx>,
): Promise<{ before: Record<string, unknown[]>; after: Record<string, unknown[]> }> {
  const { sql } = service.deps;
  const tables = readModelsOf(service.definition, service.context).flatMap((model) => model.tables);
  const before = await snapshotTables(sql, tables);
  await rebuildReadModels(service.definition, service.context, sql, service.history);
  const after = await snapshotTables(sql, tables);
  return { before, after };
}

/** The consumer that applies `identity.user.deleted` in a service (its directory's, or its deletions'). */
export function deletionConsumerOf<C extends ServiceConfig, Ctx>(service: TestService<C, Ctx>): ConsumerDefinition {
  const consumer = consumersOf(service.definition, service.context).find((c) => c.types.includes('identity.user.deleted'));
  if (!consumer) throw new Error(`${service.definition.name} does not follow user deletions`);
  return consumer;
}

/**
 * Stand-ins for the producers a test does not run: what a test publishes through them goes
 * on the bus and into their history (in order), as a real producer's relay and event store
 * would, so a consumer's catch-up and rebuild see exactly what it was sent.
 */
export interface FakeProducers {
  publish(envelope: EventEnvelope): Promise<void>;
  history(stream: StreamName): HistorySource;
  close(): Promise<void>;
}

export async function fakeProducers(config: BaseConfig): Promise<FakeProducers> {
  const bus = await connectBus({
    servers: config.NATS_URL,
    prefix: config.BUS_PREFIX,
    name: 'fake-producers',
    logger: createLogger('fake-producers', 'silent'),
  });
  const published: EventEnvelope[] = [];
  return {
    async publish(envelope) {
      published.push(envelope);
      await bus.publish(envelope);
    },
    history: (stream) => ({
      name: `fake ${stream.toLowerCase()}`,
      async page(after, types) {
        const start = Number(after.split(':')[1] ?? 0);
        const events = published.slice(start).filter((e) => streamOfType(e.type) === stream && types.includes(e.type));
        return { events, next: `0:${published.length}`, end: true };
      },
    }),
    close: () => bus.close(),
  };
}

/**
 * `identity.user.registered` of a participant as identity announces her: a plain profile
 * unless `data` gives more of it.
 */
export function registeredEnvelope(data: { userId: string } & Partial<IntegrationEventData<'identity.user.registered'>>) {
  return testEnvelope('identity.user.registered', {
    email: `member.${data.userId}@example.com`,
    firstName: 'Ada',
    lastName: 'Moss',
    dateOfBirth: null,
    timezone: 'Europe/London',
    hormonalStage: null,
    profileImageUrl: null,
    role: 'participant',
    registeredAt: new Date().toISOString(),
    ...data,
  });
}

/**
 * Holds a stream's lock from a transaction of its own, as another command on that stream in
 * flight would; resolves once it is held. `release()` lets go and answers when it did
 * (Date.now() just before), once that transaction has ended.
 */
export async function holdStreamLock(sql: Sql, streamId: string): Promise<{ release: () => Promise<number> }> {
  let held!: () => void;
  const isHeld = new Promise<void>((resolve) => (held = resolve));
  let letGo!: () => void;
  const done = new Promise<void>((resolve) => (letGo = resolve));
  const holder = sql.begin(async (tx) => {
    await lockStream(tx as unknown as Tx, streamId);
    held();
    await done;
  });
  await Promise.race([isHeld, holder]);
  return {
    release: async () => {
      const at = Date.now();
      letGo();
      await holder;
      return at;
    },
  };
}

/**
 * Resolves once a session of the service's database waits for a lock (a write blocked by a
 * transaction of the test), or `waiting` sessions do.
 */
export async function untilBlocked(sql: Sql, options: { timeoutMs?: number; signal?: AbortSignal; waiting?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  while (!options.signal?.aborted) {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    if (row!.n >= (options.waiting ?? 1)) return;
    if (Date.now() > deadline) throw new Error('nothing waited for a lock');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs `write` while her deletion is in flight: the transaction that applies
 * `identity.user.deleted` (the service's real handler: her directory row, then
 * onUserDeleted) has done its work and stays open until the write is blocked by it (or has
 * finished, having found nothing to wait for); then it commits. Returns the write's
 * result. `until: 'blocked'`: wait for the block itself (a write that only hands work to a
 * consumer, such as publishing an event).
 */
export async function duringDeletion<C extends ServiceConfig, Ctx, T>(
  service: TestService<C, Ctx>,
  userId: string,
  write: () => Promise<T>,
  options: { until?: 'blocked' | 'blocked-or-done' } = {},
): Promise<T> {
  const consumer = deletionConsumerOf(service);
  let pending: Promise<T> | undefined;
  await service.deps.sql.begin(async (tx) => {
    await consumer.handle(tx, testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() }));
    const stop = new AbortController();
    pending = write();
    const settled = pending.then(
      () => undefined,
      () => undefined,
    ); // the result is awaited after the commit
    const blocked = untilBlocked(service.deps.sql, { signal: stop.signal });
    try {
      await (options.until === 'blocked' ? blocked : Promise.race([blocked, settled]));
    } finally {
      stop.abort();
      await blocked.catch(() => undefined);
    }
  });
  return pending!;
}

/** A node of PostgreSQL's `EXPLAIN (format json)`; the Actual figures with `analyze`. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** A plan's nodes, the root and every node under it. */
export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** The nodes of `statement`'s plan as PostgreSQL runs it (EXPLAIN ANALYZE: it is run). */
export async function explainAnalyze(sql: Sql, statement: unknown): Promise<PlanNode[]> {
  const [row] = await sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>`explain (analyze, format json) ${statement as never}`;
  return planNodes(row!['QUERY PLAN'][0].Plan);
}

/** What each table gave the plan, node by node: rows × loops, and those a filter passed over. */
export const rowsRead = (plan: PlanNode[]) =>
  plan
    .filter((node) => node['Relation Name'])
    .map((node) => [node['Relation Name']!, (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']] as const);

/** The rows a plan read from every table together ({@link rowsRead}, summed). */
export const totalRowsRead = (plan: PlanNode[]) => rowsRead(plan).reduce((sum, [, rows]) => sum + rows, 0);
