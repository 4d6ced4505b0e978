import type { Logger } from 'pino';
import { createEventStore, type EventStore } from '@sleepweave/event-store';
import { isExposed, type Sql } from '@sleepweave/service-kit';
import type { IdentityConfig } from './config.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { passwordResetTokensProjection } from './password-reset/projections.ts';
import { sessionsProjection } from './sessions/projections.ts';
import type { SigningKeys } from './sessions/tokens.ts';
import { usersProjection } from './users/projections.ts';

/** What the identity slices share: one event store with its inline projections, keys, mail, time. */
export interface IdentityContext {
  config: IdentityConfig;
  sql: Sql;
  store: EventStore;
  keys: SigningKeys;
  logger: Logger;
  mailer: Mailer;
  /** The current time for commands (tests move it forward instead of sleeping). */
  clock: () => Date;
}

export const identityProjections = [usersProjection, sessionsProjection, passwordResetTokensProjection];

export function createIdentityContext(deps: { config: IdentityConfig; sql: Sql; logger: Logger }, keys: SigningKeys): IdentityContext {
  return {
    ...deps,
    keys,
    store: createEventStore(deps.sql, { projections: identityProjections }),
    mailer: createMailer({
      smtpUrl: deps.config.SMTP_URL,
      from: deps.config.MAIL_FROM,
      logger: deps.logger,
      // a local file of reset links is for a machine of one's own
      outbox: isExposed(deps.config) ? null : deps.config.MAIL_OUTBOX_DIR,
    }),
    clock: () => new Date(),
  };
}
