import { connectBus, type Bus, type StreamName } from '@sleepweave/bus';
import type { EventEnvelope } from '@sleepweave/contracts';
import {
  migrateEventStore,
  relayBacklogMs,
  type ConnectionEvents,
  startConsumer,
  INBOX_KEEP_MS,
  pruneInbox,
  startRelay,
  type Consumer,
  type HistorySource,
  type Projection,
  type RecordedEvent,
  type Relay,
  type Tx,
} from '@sleepweave/event-store';
import type { Logger } from 'pino';
import { createAccessTokenVerifier, authPlugin, remoteKeySet, type AccessTokenVerifier } from './auth.ts';
import { CONFIG_ERROR_EXIT_CODE, type BaseConfig } from './config.ts';
import { streamOfConsumer, type ConsumerDefinition } from './consumers.ts';
import { startUpkeep, type BackgroundWorker } from './upkeep.ts';
import { connectDatabase, ensureDatabase, MigrationRefused, runMigrations, type Sql } from './database.ts';
import { createHttpApp, POLLED_ROUTE, type ServiceApp } from './http.ts';
import { historyFromConfig, historyRoute, requireInternalToken } from './internal.ts';
import { createLogger } from './logger.ts';
import { releaseMemoryWhenIdle, type MemoryRelease } from './memory.ts';
import { migrateUserDirectory, userDeletionConsumer, userDirectoryConsumer } from './user-directory.ts';

export interface ServiceConfig extends BaseConfig {
  PORT: number;
}

/** What a service's context is built from: its settings, logger and database. */
export interface ContextDeps<C extends ServiceConfig = ServiceConfig> {
  config: C;
  logger: Logger;
  sql: Sql;
  /** The bus, when the service runs (absent for a rebuild from the command line). */
  bus?: Bus;
}

/** What the runtime hands a running service: that, and the bus. */
export interface ServiceDeps<C extends ServiceConfig = ServiceConfig> extends ContextDeps<C> {
  bus: Bus;
}

/**
 * A service, declared once (its `src/service.ts`): the runtime starts, stops and rebuilds
 * every service the same way from this.
 */
export interface ServiceDefinition<C extends ServiceConfig, Ctx> {
  /** `identity`, `study`, ...: also the database suffix and the event source. */
  name: string;
  migrationsDir: string;
  /** Streams this service publishes to or consumes from. */
  streams: StreamName[];
  /** Builds what the slices share (event store, keys ...) once the database is migrated. */
  context(deps: ContextDeps<C>): Promise<Ctx>;
  /** The inline projections of its event store: its own read models, rebuilt from its events. */
  projections: Projection[];
  /** Verifies access tokens; default: identity's JWKS. */
  verifier?(ctx: Ctx): AccessTokenVerifier;
  /** Registers the service's routes (the Fastify plugin of its app.ts). */
  routes(app: ServiceApp, ctx: Ctx): Promise<void>;
  /** Maps a stored domain event to the integration event the relay publishes (null: private). */
  toIntegration?(event: RecordedEvent): EventEnvelope | null;
  /**
   * Read models fed by other services' events, in the order they catch up with their
   * producers' history (after the user directory): a handler may read what an earlier
   * consumer keeps.
   */
  consumers?(ctx: Ctx): ConsumerDefinition[];
  /** Keep a `user_directory` table from identity's events (see user-directory.ts). */
  userDirectory?: boolean;
  /**
   * Removes everything the service holds of a deleted user, in the transaction that
   * records `identity.user.deleted` (docs/data-protection.md; `src/users/user-deleted.ts`).
   */
  onUserDeleted?(ctx: Ctx, tx: Tx, userId: string): Promise<void>;
  /**
   * With `userDirectory`: runs in the transaction that wrote her directory row (her
   * registration, a profile update, a role change), for what the service derives from it.
   */
  onUserChanged?(ctx: Ctx, tx: Tx, userId: string): Promise<void>;
  /** Runs after migrations, before listening (e.g. seeds). */
  onStart?(ctx: Ctx): Promise<void>;
  /**
   * Work of its own in the background (e.g. a scheduler), started with the relay and the
   * consumers and stopped before them.
   */
  workers?(ctx: Ctx): BackgroundWorker[];
  /**
   * After `projections:rebuild` rebuilt read models: what its background work would do
   * later and a rebuild leaves a lot of (e.g. rows to fold), done at once.
   */
  afterRebuild?(ctx: Ctx, sql: Sql): Promise<void>;
}

/** Every consumer of a service: its user directory (or deletions) first, then its own. */
export function consumersOf<C extends ServiceConfig, Ctx>(definition: ServiceDefinition<C, Ctx>, ctx: Ctx): ConsumerDefinition[] {
  const onUserDeleted = (tx: Tx, userId: string) => definition.onUserDeleted?.(ctx, tx, userId) ?? Promise.resolve();
  const onUserChanged = definition.onUserChanged && ((tx: Tx, userId: string) => definition.onUserChanged!(ctx, tx, userId));
  const users = definition.userDirectory
    ? [userDirectoryConsumer(definition.name, onUserDeleted, onUserChanged)]
    : definition.onUserDeleted
      ? [userDeletionConsumer(definition.name, onUserDeleted)]
      : [];
  return [...users, ...(definition.consumers?.(ctx) ?? [])];
}

export interface RunningService<C extends ServiceConfig, Ctx> {
  app: ServiceApp;
  deps: ServiceDeps<C>;
  context: Ctx;
  /** The relay (null when the service publishes nothing or runs without background work). */
  relay: Relay | null;
  consumers: Consumer[];
  /** Gives heap memory back when the process goes idle after a burst (null when not asked for). */
  memory: MemoryRelease | null;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** false in tests that use app.inject (default true). */
  listen?: boolean;
  /** Stop on SIGINT/SIGTERM (default: when listening). */
  handleSignals?: boolean;
  /** Start the relay and the consumers (default true). */
  background?: boolean;
  /** Where consumers read a producer's history (default: its internal route, from the settings). */
  history?: (stream: StreamName) => HistorySource;
  logger?: Logger;
  /** Give heap memory back once idle after a burst (memory.ts; default: when listening, i.e. a process of its own). */
  releaseMemory?: boolean;
}

export function databaseName(config: BaseConfig, service: string): string {
  return `${config.DB_PREFIX}${service.replaceAll('-', '_')}`;
}

/** Creates (when missing) and migrates a service's database; returns a pool on it. */
export async function openServiceDatabase<C extends ServiceConfig, Ctx>(
  definition: ServiceDefinition<C, Ctx>,
  config: C,
  logger: Logger,
  options: { max?: number } = {},
): Promise<Sql> {
  const database = databaseName(config, definition.name);
  await ensureDatabase(config.DATABASE_URL, database);
  const sql = connectDatabase(config.DATABASE_URL, database, {
    max: options.max ?? config.DB_POOL_MAX,
    idleTimeoutSeconds: config.DB_IDLE_TIMEOUT_SECONDS,
  });
  await migrateEventStore(sql);
  if (definition.userDirectory) await migrateUserDirectory(sql);
  await runMigrations(sql, definition.migrationsDir, logger);
  return sql;
}

/** A dependency the process could not open at start (reach it, or migrate its database), already logged (one fatal line naming it and its setting). */
export class StartDependencyError extends Error {
  override name = 'StartDependencyError';
}

/**
 * Opens a dependency at start (the database with its migrations, the bus). One that cannot
 * be opened is logged as one fatal line naming it and its setting, and thrown as a
 * StartDependencyError.
 */
export async function reachAtStart<T>(what: string, setting: string, logger: Logger, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `Start failed at ${what} (${setting}): ${reason}`;
    // the reason and its code, not the error's stack: what failed is named, and npm start's
    // readable log printed the stack under it (16 lines for a port taken)
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    logger.fatal({ setting, ...(code === undefined ? {} : { code }) }, message);
    throw new StartDependencyError(message, { cause: error });
  }
}

/**
 * SQLSTATEs and socket errors met at start that every restart would meet again: the
 * database refuses this role what it needs (42501: to create its database, or to create in
 * it) or its sign-in (28P01, 28000); the port is another process's (EADDRINUSE: a second
 * `npm start` on the same ports restarted every app for good) or not this user's (EACCES).
 */
const NO_RESTART_MENDS = new Set(['42501', '28P01', '28000', 'EADDRINUSE', 'EACCES']);

/** A start failure that no restart mends: a MigrationRefused, or one of NO_RESTART_MENDS. */
export function noRestartMends(cause: unknown): boolean {
  if (cause instanceof MigrationRefused) return true;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && NO_RESTART_MENDS.has(code);
}

/**
 * What a service's entry point does with a start that failed: a dependency that could not
 * be opened was logged as one line, and the process exits without a stack trace: 1, for the
 * supervisor or the container's restart policy to try again later, or, for what no restart
 * mends (a migration changed since it was applied or refused by the database, a database
 * refusing this role, a port taken: noRestartMends), CONFIG_ERROR_EXIT_CODE (npm start
 * ends, saying so). Anything else is thrown as it is.
 */
export function exitIfUnreachable(error: unknown): never {
  if (error instanceof StartDependencyError) process.exit(noRestartMends(error.cause) ? CONFIG_ERROR_EXIT_CODE : 1);
  throw error;
}

/**
 * The one way every service starts: its own database (created and migrated), the bus
 * (its streams declared), the HTTP app with /health and its internal history route, the
 * outbox relay and its consumers (each catching up with its producer's history before it
 * follows the bus); and one way it stops: stop listening, stop consuming, flush the relay,
 * drain, close.
 */
export async function startService<C extends ServiceConfig, Ctx>(
  definition: ServiceDefinition<C, Ctx>,
  config: C,
  options: StartOptions = {},
): Promise<RunningService<C, Ctx>> {
  const listen = options.listen ?? true;
  const background = options.background ?? true;
  const logger = options.logger ?? createLogger(definition.name, config.LOG_LEVEL, config.LOG_FORMAT);

  const sql = await reachAtStart('PostgreSQL', 'DATABASE_URL', logger, () => openServiceDatabase(definition, config, logger));
  const bus = await reachAtStart('NATS', 'NATS_URL', logger, () =>
    connectBus({ servers: config.NATS_URL, prefix: config.BUS_PREFIX, name: definition.name, logger }),
  ).catch(async (error: unknown) => {
    await sql.end({ timeout: 1 }).catch(() => undefined);
    throw error;
  });
  await bus.ensureStreams(definition.streams);

  const deps: ServiceDeps<C> = { config, logger, sql, bus };
  const context = await definition.context(deps);
  const verifier = definition.verifier?.(context) ?? createAccessTokenVerifier(remoteKeySet(config.IDENTITY_URL));
  await definition.onStart?.(context);

  let relay: Relay | null = null;
  const consumers: Consumer[] = [];
  const workers: BackgroundWorker[] = [];

  const app = createHttpApp({ logger });
  requireInternalToken(app, config.INTERNAL_TOKEN);
  await app.register(authPlugin, { verifier });
  app.get('/health', POLLED_ROUTE, async (request, reply) => {
    const checks: Record<string, string> = { postgres: 'ok', nats: bus.isConnected() ? 'ok' : 'down' };
    try {
      await sql`select 1`;
      if (definition.toIntegration) checks.relay = await relayHealth(sql, relay);
    } catch {
      checks.postgres = 'down';
    }
    for (const consumer of consumers) checks[`consumer:${consumer.name}`] = consumer.state();
    const ok = Object.values(checks).every((value) => value === 'ok' || value === 'following');
    // (its answers are not logged: POLLED_ROUTE) what is wrong is, at each poll while it is
    if (!ok) request.log.warn({ checks }, 'degraded');
    // Which instance publishes this service's events (the others stand by).
    const role = relay ? { relay: relay.status().active ? 'active' : 'standby' } : {};
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', service: definition.name, checks, ...role });
  });
  if (definition.toIntegration) historyRoute(app, sql, definition.toIntegration);
  await app.register(async (instance) => definition.routes(instance as unknown as ServiceApp, context));
  await app.ready();

  if (background) {
    if (definition.toIntegration) {
      const connect = (events: ConnectionEvents) =>
        connectDatabase(config.DATABASE_URL, databaseName(config, definition.name), { max: 1, events });
      const started = startRelay({ connect, bus, source: definition.name, toIntegration: definition.toIntegration, logger });
      // Events held back while NATS was away go out as soon as it is back.
      bus.onReconnect(() => started.wake());
      relay = started;
    }
    const history = options.history ?? historyFromConfig(config);
    // Each catches up after the one before (its user directory first): a handler may read
    // what an earlier consumer keeps.
    let previous: Promise<void> = Promise.resolve();
    for (const consumer of consumersOf(definition, context)) {
      const stream = streamOfConsumer(consumer);
      const started = startConsumer({
        sql,
        bus,
        name: consumer.name,
        stream,
        types: [...consumer.types],
        handle: consumer.handle as (tx: Tx, envelope: EventEnvelope) => Promise<void>,
        orderKey: consumer.orderKey as ((envelope: EventEnvelope) => string) | undefined,
        history: history(stream),
        after: previous,
        logger,
      });
      consumers.push(started);
      previous = started.caughtUp;
    }
    // What the consumers applied is remembered as long as a copy can still come (inbox.ts).
    if (consumers.length > 0) {
      const task = {
        name: 'pruning the inbox',
        run: async (now: Date) => ({ deleted: await pruneInbox(sql, { before: new Date(now.getTime() - INBOX_KEEP_MS) }) }),
      };
      workers.push(startUpkeep(logger, [task], { component: 'inbox-pruning', firstAfterMs: 60_000, everyMs: 60 * 60_000 }));
    }
    workers.push(...(definition.workers?.(context) ?? []));
  }

  if (listen)
    await reachAtStart(`its port ${config.HOST}:${config.PORT}`, 'PORT', logger, () =>
      app.listen({ host: config.HOST, port: config.PORT }),
    );
  // The start (migrations, consumers catching up, a due research run) is a burst: its memory
  // goes back once the process is idle.
  const memory = (options.releaseMemory ?? listen) ? releaseMemoryWhenIdle({ logger }) : null;

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('stopping');
      memory?.stop();
      await app.close();
      for (const worker of workers) await worker.stop();
      for (const consumer of consumers) await consumer.stop();
      await relay?.stop();
      await bus.close();
      await sql.end({ timeout: 5 });
      logger.info('stopped');
    })());

  if (options.handleSignals ?? listen) onShutdownSignal(stop, logger);
  return { app, deps, context, relay, consumers, memory, stop };
}

/** An event that has waited this long to be published means the relay is behind. */
export const RELAY_BEHIND_AFTER_MS = 30_000;

/**
 * `failing` while this instance's relay keeps failing; `behind` when the next event to
 * publish has waited longer than {@link RELAY_BEHIND_AFTER_MS}, whichever instance holds
 * the relay (read from the database); else `ok`.
 */
async function relayHealth(sql: Sql, relay: Relay | null): Promise<string> {
  if (relay?.status().failing) return 'failing';
  const waitingMs = await relayBacklogMs(sql);
  return waitingMs !== null && waitingMs > RELAY_BEHIND_AFTER_MS ? 'behind' : 'ok';
}

/**
 * Set to 1 by whoever starts the app with a pipe as its standard input that it never writes
 * to (npm start's supervisor, the benches): the app stops when that input ends, which is
 * when the process holding the pipe's other end has gone, however it went.
 */
export const STOP_ON_STDIN_END = 'STOP_ON_STDIN_END';

/**
 * SIGINT/SIGTERM run `stop` once; a second signal, or 10 s without finishing, exits at once.
 * With {@link STOP_ON_STDIN_END}, the end of standard input does what SIGTERM does: a
 * supervisor killed outright (kill -9, the OOM killer) sends its apps no signal, and they
 * ran on as orphans holding the ports the next `npm start` needs.
 */
export function onShutdownSignal(stop: () => Promise<void>, logger: Logger): void {
  let signalled = false;
  const shutDown = (cause: { signal: NodeJS.Signals } | { stdin: 'ended' }) => {
    if (signalled) process.exit(1);
    signalled = true;
    logger.info(cause, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutDown({ signal: 'SIGINT' }));
  process.on('SIGTERM', () => shutDown({ signal: 'SIGTERM' }));
  if (process.env[STOP_ON_STDIN_END] === '1') {
    // nothing is ever written to it: it only ends
    process.stdin.on('data', () => {});
    process.stdin.once('end', () => {
      if (!signalled) shutDown({ stdin: 'ended' });
    });
  }
}
