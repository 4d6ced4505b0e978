import type { ServiceConfig, ServiceDefinition } from './runtime.ts';
import { databaseName } from './runtime.ts';
import { connectDatabase } from './database.ts';
import { historyFromConfig } from './internal.ts';
import { configOrExit } from './config.ts';
import { createLogger } from './logger.ts';
import { rebuildReadModels, UnknownReadModels } from './rebuild.ts';

/**
 * `npm run projections:rebuild -w services/<name> -- [read model ...]`: rebuilds read
 * models (all of them when none is named). A projection is rebuilt from the service's own
 * events; a consumer's read model by replaying its producer's history, so that producer
 * must be running (its internal route, at the URL and with the token of the settings).
 */
export async function rebuildCli<C extends ServiceConfig, Ctx>(
  definition: ServiceDefinition<C, Ctx>,
  readConfig: () => C,
  args: string[],
): Promise<void> {
  const config = configOrExit(readConfig);
  const logger = createLogger(`${definition.name}-cli`, 'warn');
  const sql = connectDatabase(config.DATABASE_URL, databaseName(config, definition.name), { max: 2 });
  try {
    const ctx = await definition.context({ config, logger, sql });
    const results = await rebuildReadModels(definition, ctx, sql, historyFromConfig(config), args);
    for (const { name, kind, events } of results) {
      console.log(
        `${definition.name}/${name}: rebuilt from ${events} events (${kind === 'projection' ? 'its own' : "the producer's history"})`,
      );
    }
  } catch (err) {
    console.error((err as Error).message);
    if (!(err instanceof UnknownReadModels))
      console.error(
        `(A consumer's read model is rebuilt from its producer's history, read at its <NAME>_URL, identity's here ${config.IDENTITY_URL}: the system must be running, with the same SERVICE_PORT_BASE, INTERNAL_TOKEN and DB_PREFIX as npm start.)`,
      );
    process.exitCode = 2;
  } finally {
    await sql.end();
  }
}
