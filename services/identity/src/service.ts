import { fileURLToPath } from 'node:url';
import { createAccessTokenVerifier, type ServiceDefinition } from '@sleepweave/service-kit';
import { identityApp } from './app.ts';
import type { IdentityConfig } from './config.ts';
import { createIdentityContext, identityProjections, type IdentityContext } from './context.ts';
import { toIntegration } from './integration/publishers.ts';
import { startRetention } from './retention.ts';
import { studyConsentGiven } from './integration/study-consent-given.ts';
import { loadSigningKeys } from './sessions/tokens.ts';
import { grantAdminEmails } from './users/commands.ts';

/** The identity service: users, credentials, sessions, roles, JWKS. */
export const identityService: ServiceDefinition<IdentityConfig, IdentityContext> = {
  name: 'identity',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  streams: ['IDENTITY', 'STUDY'],
  context: async (deps) => createIdentityContext(deps, await loadSigningKeys(deps.sql)),
  projections: identityProjections,
  // identity verifies with its own public keys instead of fetching its JWKS over HTTP
  verifier: (ctx) => createAccessTokenVerifier(ctx.keys.keySet),
  onStart: (ctx) => grantAdminEmails(ctx, ctx.config.ADMIN_EMAILS),
  routes: identityApp,
  toIntegration,
  consumers: (ctx) => [studyConsentGiven(ctx)],
  // a session's and a reset link's stream and rows go a day after it ended (retention.ts)
  workers: (ctx) => [startRetention(ctx)],
};
