import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@sleepweave/service-kit';
import { journalApp } from './app.ts';
import type { JournalConfig } from './config.ts';
import { createJournalContext, journalProjections, type JournalContext } from './context.ts';
import { toIntegration } from './integration/publishers.ts';
import { onUserDeleted } from './users/user-deleted.ts';

/** The journal service: daily journal entries (affirmation, gratitude, forgiveness). */
export const journalService: ServiceDefinition<JournalConfig, JournalContext> = {
  name: 'journal',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  streams: ['JOURNAL', 'IDENTITY'],
  context: async (deps) => createJournalContext(deps),
  projections: journalProjections,
  routes: journalApp,
  toIntegration,
  // Her timezone (today's date of an entry) comes from identity's events.
  userDirectory: true,
  onUserDeleted,
};
