import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@sleepweave/service-kit';
import { studyApp } from './app.ts';
import type { StudyConfig } from './config.ts';
import { createStudyContext, type StudyContext } from './context.ts';
import { removeParticipantData } from './integration/identity-user-deleted.ts';
import { toIntegration } from './integration/publishers.ts';

/** The study service: consent, protocol and phases, sleep logs. */
export const studyService: ServiceDefinition<StudyConfig, StudyContext> = {
  name: 'study',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  streams: ['STUDY', 'IDENTITY'],
  context: async (deps) => createStudyContext(deps),
  routes: studyApp,
  toIntegration,
  // Her timezone (for the study day) comes from identity's events; a deleted user's
  // consent and nights go with her directory row (docs/data-protection.md).
  userDirectory: (ctx) => ({ onUserDeleted: (tx, userId) => removeParticipantData(ctx, tx, userId) }),
};
