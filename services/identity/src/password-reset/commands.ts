import { randomUUID } from 'node:crypto';
import { INVALID_RESET_TOKEN } from '@sleepweave/contracts';
import type { EventMetadata } from '@sleepweave/event-store';
import { execute, HttpError, runCommand, type DomainErrors } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { revokeUserSessions } from '../sessions/commands.ts';
import { InvalidResetToken, RESET_TOKEN_TTL_MINUTES, UserNotFound, userDecider } from '../users/business-logic.ts';
import { userStreamId } from '../users/user.ts';

export const invalidResetToken = () => new HttpError(400, 'invalid_token', INVALID_RESET_TOKEN);

/** Used or voided meanwhile (a second click after the first), or her account is gone. */
const errors: DomainErrors = [
  [InvalidResetToken, invalidResetToken],
  [UserNotFound, invalidResetToken],
];

/**
 * Records a reset link for her (its hash and expiry); returns false when she was deleted a
 * moment ago (the caller answers as for any unknown e-mail).
 */
export async function requestPasswordReset(
  ctx: IdentityContext,
  input: { userId: string; tokenHash: string; now: Date },
  metadata: EventMetadata,
): Promise<boolean> {
  const { userId, tokenHash, now } = input;
  try {
    await runCommand(
      ctx,
      userStreamId(userId),
      userDecider,
      { type: 'RequestPasswordReset', data: { userId, tokenId: randomUUID(), tokenHash, ttlMinutes: RESET_TOKEN_TTL_MINUTES, now } },
      { metadata },
    );
    return true;
  } catch (err) {
    if (err instanceof UserNotFound) return false;
    throw err;
  }
}

/** Sets the new password, uses the token up and ends every session of hers, in one transaction. */
export async function resetPassword(
  ctx: IdentityContext,
  input: { userId: string; tokenHash: string; passwordHash: string; now: Date },
  metadata: EventMetadata,
): Promise<void> {
  const { userId, tokenHash, passwordHash, now } = input;
  await execute(ctx, { metadata, errors }, async (scope) => {
    await scope.handle(userStreamId(userId), userDecider, { type: 'ResetPassword', data: { userId, tokenHash, passwordHash, now } });
    await revokeUserSessions(scope, userId, 'password_reset', { now });
    // A sign-in lock from failed attempts ends with the new password.
    await scope.tx`delete from login_failures where email = (select email from users where id = ${userId})`;
  });
}
