import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@sleepweave/service-kit';
import { journalApp } from './app.ts';
import type { JournalConfig } from './config.ts';
import { createJournalContext, type JournalContext } from './context.ts';
import { identityUserDeleted } from './integration/identity-user-deleted.ts';
import { toIntegration } from './integration/publishers.ts';

/** The journal service: daily journal entries (affirmation, gratitude, forgiveness). */
export const journalService: ServiceDefinition<JournalConfig, JournalContext> = {
  name: 'journal',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  streams: ['JOURNAL', 'IDENTITY'],
  context: async (deps) => createJournalContext(deps),
  routes: journalApp,
  toIntegration,
  // Her timezone (today's date of an entry) comes from identity's events; her deletion
  // removes everything the journal holds of her.
  userDirectory: identityUserDeleted,
};
