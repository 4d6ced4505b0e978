import { setTimeout as delay } from 'node:timers/promises';
import type { Sql } from '@sleepweave/service-kit';
import type { Logger } from 'pino';
import { compactAdminTallies } from './stats.ts';
import { refreshDueCompliance } from './user-order.ts';

/**
 * The admin read model's rounds in the background, every `intervalMs` (first after one
 * interval); every instance runs them, and they share the rows. Each task's failure is
 * logged and tried again at the next round.
 * - The list's compliance brought up to date ({@link refreshDueCompliance}), so that the
 *   first page sorted or filtered by it after 04:00 in a time zone does not pay for that
 *   zone's day (1.3 s for 100,000 users, all zones at once); such a page still refreshes
 *   what is left, usually nothing (skip locked between instances).
 * - The tiles' tallies folded ({@link compactAdminTallies}), so the tiles read a few dozen
 *   rows and not every change since the start.
 */
export function startAdminUpkeep(ctx: { sql: Sql; logger: Logger }, options: { intervalMs?: number } = {}): { stop(): Promise<void> } {
  const intervalMs = options.intervalMs ?? 60_000;
  const log = ctx.logger.child({ component: 'admin-upkeep' });
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      // a stop ends the wait at once
      await delay(intervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      if (stopping.signal.aborted) break;
      try {
        const refreshed = await refreshDueCompliance(ctx.sql, new Date());
        if (refreshed > 0) log.info({ refreshed }, 'compliance brought up to date for a new day');
      } catch (err) {
        log.error({ err }, 'compliance refresh failed; trying again at the next round');
      }
      try {
        await compactAdminTallies(ctx.sql, new Date());
      } catch (err) {
        log.error({ err }, "folding the dashboard's tallies failed; trying again at the next round");
      }
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
