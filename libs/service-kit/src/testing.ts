import { randomBytes } from 'node:crypto';
import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { dropDatabase } from './database.ts';
import { databaseName, startService, type RunningService, type ServiceConfig, type ServiceDefinition } from './runtime.ts';
import { createLogger } from './logger.ts';

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
    ...overrides,
  };
}

export interface TestService<C extends ServiceConfig, Ctx> extends RunningService<C, Ctx> {
  /** Stops the service, drops its database and deletes its streams. */
  cleanup(): Promise<void>;
}

/** Starts a service the way production does; by default without listening (use app.inject). */
export async function startTestService<C extends ServiceConfig, Ctx>(
  definition: ServiceDefinition<C, Ctx>,
  config: C,
  options: { background?: boolean; listen?: boolean } = {},
): Promise<TestService<C, Ctx>> {
  const running = await startService(definition, config, {
    listen: options.listen ?? false,
    handleSignals: false,
    background: options.background ?? true,
    logger: createLogger(definition.name, config.LOG_LEVEL),
  });
  return {
    ...running,
    async cleanup() {
      await running.stop();
      await dropDatabase(config.DATABASE_URL, databaseName(config, definition.name));
      await deleteStreamsOfPrefix(config.NATS_URL, config.BUS_PREFIX);
    },
  };
}
