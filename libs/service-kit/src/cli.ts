import { rebuildProjection, type Projection } from '@sleepweave/event-store';
import { BaseConfig, loadConfig } from './config.ts';
import { connectDatabase } from './database.ts';
import { databaseName } from './runtime.ts';

/**
 * `npm run projections:rebuild -w services/<name> -- [projection ...]`:
 * rebuilds read models from the service's events (all of them when none is named).
 */
export async function rebuildProjectionsCli(service: string, projections: Projection[], args: string[]): Promise<void> {
  const config = loadConfig(BaseConfig);
  const unknown = args.filter((name) => !projections.some((p) => p.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown projection(s): ${unknown.join(', ')}. Known: ${projections.map((p) => p.name).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const chosen = args.length > 0 ? projections.filter((p) => args.includes(p.name)) : projections;
  const sql = connectDatabase(config.DATABASE_URL, databaseName(config, service), { max: 2 });
  try {
    for (const projection of chosen) {
      const count = await rebuildProjection(sql, projection);
      console.log(`${service}/${projection.name}: rebuilt from ${count} events`);
    }
  } finally {
    await sql.end();
  }
}
