import { connectBus, type Bus, type StreamName, type Subscription } from '@sleepweave/bus';
import type { EventEnvelope } from '@sleepweave/contracts';
import { migrateEventStore, startConsumer, startRelay, type RecordedEvent, type Tx } from '@sleepweave/event-store';
import type { Logger } from 'pino';
import { createAccessTokenVerifier, authPlugin, remoteKeySet, type AccessTokenVerifier } from './auth.ts';
import type { BaseConfig } from './config.ts';
import { connectDatabase, ensureDatabase, runMigrations, type Sql } from './database.ts';
import { createHttpApp, type ServiceApp } from './http.ts';
import { createLogger } from './logger.ts';
import { migrateUserDirectory, userDirectoryConsumer, type UserDirectoryOptions } from './user-directory.ts';

export interface ServiceConfig extends BaseConfig {
  PORT: number;
}

/** What the runtime hands a service: its settings, logger, database and bus. */
export interface ServiceDeps<C extends ServiceConfig = ServiceConfig> {
  config: C;
  logger: Logger;
  sql: Sql;
  bus: Bus;
}

export interface ConsumerDefinition {
  /** Durable and inbox name: `<consumer>-<source>-<purpose>`. */
  name: string;
  stream: StreamName;
  types: string[];
  handle(tx: Tx, envelope: EventEnvelope): Promise<void>;
}

export interface ServiceDefinition<C extends ServiceConfig, Ctx> {
  /** `identity`, `study`, ...: also the database suffix and the event source. */
  name: string;
  migrationsDir: string;
  /** Streams this service publishes to or consumes from. */
  streams: StreamName[];
  /** Builds what the slices share (event store, keys ...) once the database is migrated. */
  context(deps: ServiceDeps<C>): Promise<Ctx>;
  /** Verifies access tokens; default: identity's JWKS. */
  verifier?(ctx: Ctx): AccessTokenVerifier;
  /** Registers the service's routes (the Fastify plugin of its app.ts). */
  routes(app: ServiceApp, ctx: Ctx): Promise<void>;
  /** Maps a stored domain event to the integration event the relay publishes (null: private). */
  toIntegration?(event: RecordedEvent): EventEnvelope | null;
  consumers?(ctx: Ctx): ConsumerDefinition[];
  /** Keep a `user_directory` table from identity's events (see user-directory.ts). */
  userDirectory?(ctx: Ctx): UserDirectoryOptions;
  /** Runs after migrations, before listening (e.g. seeds). */
  onStart?(ctx: Ctx): Promise<void>;
}

export interface RunningService<C extends ServiceConfig, Ctx> {
  app: ServiceApp;
  deps: ServiceDeps<C>;
  context: Ctx;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** false in tests that use app.inject (default true). */
  listen?: boolean;
  /** Stop on SIGINT/SIGTERM (default: when listening). */
  handleSignals?: boolean;
  /** Start the relay and the consumers (default true). */
  background?: boolean;
  logger?: Logger;
}

export function databaseName(config: BaseConfig, service: string): string {
  return `${config.DB_PREFIX}${service.replaceAll('-', '_')}`;
}

/**
 * The one way every service starts: its own database (created and migrated), the bus
 * (its streams declared), the HTTP app with /health, the outbox relay and its consumers;
 * and one way it stops: stop listening, stop consuming, flush the relay, drain, close.
 */
export async function startService<C extends ServiceConfig, Ctx>(
  definition: ServiceDefinition<C, Ctx>,
  config: C,
  options: StartOptions = {},
): Promise<RunningService<C, Ctx>> {
  const listen = options.listen ?? true;
  const background = options.background ?? true;
  const logger = options.logger ?? createLogger(definition.name, config.LOG_LEVEL, config.LOG_FORMAT);

  const database = databaseName(config, definition.name);
  await ensureDatabase(config.DATABASE_URL, database);
  const sql = connectDatabase(config.DATABASE_URL, database);
  await migrateEventStore(sql);
  if (definition.userDirectory) await migrateUserDirectory(sql);
  await runMigrations(sql, definition.migrationsDir, logger);

  const bus = await connectBus({ servers: config.NATS_URL, prefix: config.BUS_PREFIX, name: definition.name, logger });
  await bus.ensureStreams(definition.streams);

  const deps: ServiceDeps<C> = { config, logger, sql, bus };
  const context = await definition.context(deps);
  const verifier = definition.verifier?.(context) ?? createAccessTokenVerifier(remoteKeySet(config.IDENTITY_URL));
  await definition.onStart?.(context);

  const app = createHttpApp({ logger });
  await app.register(authPlugin, { verifier });
  app.get('/health', async (_request, reply) => {
    const checks = { postgres: 'ok', nats: bus.isConnected() ? 'ok' : 'down' };
    try {
      await sql`select 1`;
    } catch {
      checks.postgres = 'down';
    }
    const ok = checks.postgres === 'ok' && checks.nats === 'ok';
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', service: definition.name, checks });
  });
  await app.register(async (instance) => definition.routes(instance as unknown as ServiceApp, context));
  await app.ready();

  const subscriptions: Subscription[] = [];
  let relay: { stop(): Promise<void> } | null = null;
  if (background) {
    if (definition.toIntegration) {
      relay = startRelay({ sql, bus, source: definition.name, toIntegration: definition.toIntegration, logger });
    }
    const consumers = [
      ...(definition.userDirectory ? [userDirectoryConsumer(definition.name, definition.userDirectory(context))] : []),
      ...(definition.consumers?.(context) ?? []),
    ];
    for (const consumer of consumers) {
      subscriptions.push(
        await startConsumer({
          sql,
          bus,
          name: consumer.name,
          stream: consumer.stream,
          types: consumer.types,
          handle: consumer.handle,
          logger,
        }),
      );
    }
  }

  if (listen) await app.listen({ host: config.HOST, port: config.PORT });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('stopping');
      await app.close();
      for (const subscription of subscriptions) await subscription.stop();
      await relay?.stop();
      await bus.close();
      await sql.end({ timeout: 5 });
      logger.info('stopped');
    })());

  if (options.handleSignals ?? listen) onShutdownSignal(stop, logger);
  return { app, deps, context, stop };
}

/** SIGINT/SIGTERM run `stop` once; a second signal, or 10 s without finishing, exits at once. */
export function onShutdownSignal(stop: () => Promise<void>, logger: Logger): void {
  let signalled = false;
  const handler = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(1);
    signalled = true;
    logger.info({ signal }, 'shutting down');
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
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
