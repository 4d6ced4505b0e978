import { startUpkeep, type BackgroundWorker, type Sql } from '@sleepweave/service-kit';
import type { Logger } from 'pino';
import { compactAdminTallies } from './stats.ts';
import { refreshDueCompliance } from './user-order.ts';

/**
 * The admin read model's rounds in the background, every `intervalMs` (first after one
 * interval); every instance runs them, and they share the rows.
 * - The list's compliance brought up to date ({@link refreshDueCompliance}), so that the
 *   first page sorted or filtered by it after 04:00 in a time zone does not pay for that
 *   zone's day (1.3 s for 100,000 users, all zones at once); such a page still refreshes
 *   what is left, usually nothing (skip locked between instances).
 * - The tiles' tallies folded ({@link compactAdminTallies}), so the tiles read a few dozen
 *   rows and not every change since the start.
 */
export function startAdminUpkeep(ctx: { sql: Sql; logger: Logger }, options: { intervalMs?: number } = {}): BackgroundWorker {
  const { sql } = ctx;
  return startUpkeep(
    ctx.logger,
    [
      {
        name: 'bringing compliance up to date for a new day',
        run: async (now) => ({ refreshed: await refreshDueCompliance(sql, now) }),
      },
      {
        name: "folding the dashboard's tallies",
        run: async (now) => {
          await compactAdminTallies(sql, now);
          return undefined;
        },
      },
    ],
    { component: 'admin-upkeep', everyMs: options.intervalMs ?? 60_000 },
  );
}
