import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@sleepweave/service-kit';
import { researchExportApp } from './app.ts';
import type { ResearchExportConfig } from './config.ts';
import { createResearchExportContext, researchExportProjections, type ResearchExportContext } from './context.ts';
import { identityDeletions } from './integration/identity-deletions.ts';
import { identityRoleChanges } from './integration/identity-roles.ts';
import { journalEntries } from './integration/journal-entries.ts';
import { studyConsentGiven } from './integration/study-consent-given.ts';
import { studySleepLogs } from './integration/study-sleep-logs.ts';
import { onUserDeleted } from './users/user-deleted.ts';
import { startRunWorker } from './runs/worker.ts';
import { compactAdminTallies } from './admin/stats.ts';
import { startAdminUpkeep } from './admin/upkeep.ts';
import { refreshUserOrder } from './admin/user-order.ts';

/**
 * The research-export service: the study's data under research ids (fed by identity, study
 * and journal events), the nightly research run and its zip, and each participant's own
 * export. It publishes nothing.
 */
export const researchExportService: ServiceDefinition<ResearchExportConfig, ResearchExportContext> = {
  name: 'research-export',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  streams: ['IDENTITY', 'STUDY', 'JOURNAL'],
  context: async (deps) => createResearchExportContext(deps),
  projections: researchExportProjections,
  routes: researchExportApp,
  // Age band and hormonal stage come from identity's events (never her name or e-mail in a file).
  userDirectory: true,
  onUserDeleted,
  // her time zone decides her today, so her compliance in the admin list's order
  onUserChanged: (_ctx, tx, userId) => refreshUserOrder(tx, userId),
  consumers: (ctx) => [studyConsentGiven(ctx), studySleepLogs(), journalEntries(), identityRoleChanges(ctx), identityDeletions(ctx)],
  // A rebuild leaves a row of admin_tallies for every night and entry it replayed: folded at
  // once, and the table made small again (the tiles read it whole; docs/admin.md).
  afterRebuild: async (_ctx, sql) => {
    await compactAdminTallies(sql, new Date());
    await sql`vacuum full admin_tallies`;
  },
  workers: (ctx) => {
    // The zip's libraries (archiver, pdfkit, the statistics) load with the first run, not at start.
    const worker = startRunWorker(ctx, async (runCtx, now, requestedAt) =>
      (await import('./export/research-zip.ts')).buildResearchZip(runCtx, now, requestedAt),
    );
    ctx.wakeRunWorker = worker.wake;
    return [worker, startAdminUpkeep(ctx)];
  },
};
