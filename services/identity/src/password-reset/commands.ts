import { randomUUID } from 'node:crypto';
import { INVALID_RESET_TOKEN } from '@sleepweave/contracts';
import { lockStream, type EventMetadata } from '@sleepweave/event-store';
import { execute, HttpError, type DomainErrors } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { revokeUserSessions } from '../sessions/commands.ts';
import { InvalidResetToken, RESET_TOKEN_TTL_MINUTES, UserNotFound, userDecider } from '../users/business-logic.ts';
import { userStreamId, type PasswordResetRequested, type UserEvent } from '../users/user.ts';
import { linkOf, resetLinkDecider, resetLinkStreamId } from './reset-link.ts';

export const invalidResetToken = () => new HttpError(400, 'invalid_token', INVALID_RESET_TOKEN);

/** Used or voided meanwhile (a second click after the first), or her account is gone. */
const errors: DomainErrors = [
  [InvalidResetToken, invalidResetToken],
  [UserNotFound, invalidResetToken],
];

/**
 * Records a reset link for her (its hash and expiry) in a stream of its own, under her
 * password's current version; returns false when she was deleted a moment ago (the caller
 * answers as for any unknown e-mail). Her stream's lock is held meanwhile: a password change
 * or a deletion of hers goes before or after, never between the read and the link.
 */
export async function requestPasswordReset(
  ctx: IdentityContext,
  input: { userId: string; tokenHash: string; now: Date },
  metadata: EventMetadata,
): Promise<boolean> {
  const { userId, tokenHash, now } = input;
  return execute(ctx, { metadata }, async ({ tx, handle }) => {
    await lockStream(tx, userStreamId(userId));
    const { events } = await ctx.store.readStream<UserEvent>(userStreamId(userId), tx);
    const user = events.reduce(userDecider.evolve, userDecider.initialState());
    if (user.status !== 'registered') return false;
    const tokenId = randomUUID();
    await handle(
      resetLinkStreamId(tokenId),
      resetLinkDecider,
      {
        type: 'RequestPasswordReset',
        data: { userId, tokenId, tokenHash, ttlMinutes: RESET_TOKEN_TTL_MINUTES, passwordVersion: user.passwordVersion, now },
      },
      { expectedVersion: 'no_stream' },
    );
    return true;
  });
}

/** Sets the new password, uses the token up and ends every session of hers, in one transaction. */
export async function resetPassword(
  ctx: IdentityContext,
  input: { userId: string; tokenId: string; tokenHash: string; passwordHash: string; now: Date },
  metadata: EventMetadata,
): Promise<void> {
  const { userId, tokenId, tokenHash, passwordHash, now } = input;
  await execute(ctx, { metadata, errors }, async (scope) => {
    // (a link's stream never changes once written: read without its lock)
    const { events } = await ctx.store.readStream<PasswordResetRequested>(resetLinkStreamId(tokenId), scope.tx);
    const link = linkOf(events.reduce(resetLinkDecider.evolve, resetLinkDecider.initialState()));
    await scope.handle(userStreamId(userId), userDecider, { type: 'ResetPassword', data: { userId, tokenHash, passwordHash, now, link } });
    await revokeUserSessions(scope, userId, 'password_reset', { now });
    // A sign-in lock from failed attempts ends with the new password.
    await scope.tx`delete from login_failures where email = (select email from users where id = ${userId})`;
  });
}
