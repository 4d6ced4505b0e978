import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@sleepweave/service-kit';
import { studyApp } from './app.ts';
import type { StudyConfig } from './config.ts';
import { createStudyContext, studyProjections, type StudyContext } from './context.ts';
import { toIntegration } from './integration/publishers.ts';
import { onUserDeleted } from './users/user-deleted.ts';

/** The study service: consent, protocol and phases, sleep logs. */
export const studyService: ServiceDefinition<StudyConfig, StudyContext> = {
  name: 'study',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  streams: ['STUDY', 'IDENTITY'],
  context: async (deps) => createStudyContext(deps),
  projections: studyProjections,
  routes: studyApp,
  toIntegration,
  // Her timezone (for the study day) comes from identity's events.
  userDirectory: true,
  onUserDeleted,
};
