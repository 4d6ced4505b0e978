import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@sleepweave/service-kit';
import { communityApp } from './app.ts';
import type { CommunityConfig } from './config.ts';
import { communityProjections, createCommunityContext, type CommunityContext } from './context.ts';
import { toIntegration } from './integration/publishers.ts';
import { studyConsentGiven } from './integration/study-consent-given.ts';
import { ensureWelcomeMessage, ensureWelcomeThread } from './threads/commands.ts';
import { onUserDeleted } from './users/user-deleted.ts';

/** The community service: threads, memberships, messages, community stats. */
export const communityService: ServiceDefinition<CommunityConfig, CommunityContext> = {
  name: 'community',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  streams: ['IDENTITY', 'STUDY', 'COMMUNITY'],
  context: async (deps) => createCommunityContext(deps),
  projections: communityProjections,
  onStart: async (ctx) => {
    await ensureWelcomeThread(ctx);
    await ensureWelcomeMessage(ctx);
  },
  routes: communityApp,
  toIntegration,
  // Senders' names and timezones come from identity's events.
  userDirectory: true,
  onUserDeleted,
  consumers: (ctx) => [studyConsentGiven(ctx)],
};
