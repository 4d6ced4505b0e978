import { defineProjection } from '@sleepweave/event-store';
import type { UserDeleted } from '../account-deletion/account-deletion.ts';
import type { PasswordChanged, PasswordReset, PasswordResetRequested } from '../users/user.ts';

/** The `password_reset_tokens` read model: which link (by hash) belongs to whom, until when. */
export const passwordResetTokensProjection = defineProjection<PasswordResetRequested | PasswordReset | PasswordChanged | UserDeleted>({
  name: 'password_reset_tokens',
  tables: ['password_reset_tokens'],
  handles: ['PasswordResetRequested', 'PasswordReset', 'PasswordChanged', 'UserDeleted'],
  async apply(tx, event) {
    switch (event.type) {
      case 'PasswordResetRequested': {
        const d = event.data;
        await tx`
          insert into password_reset_tokens (id, user_id, token_hash, created_at, expires_at)
          values (${d.tokenId}, ${d.userId}, ${d.tokenHash}, ${d.requestedAt}, ${d.expiresAt})`;
        return;
      }
      // Any new password voids every outstanding link of hers (the used one included).
      case 'PasswordReset':
        await tx`update password_reset_tokens set used_at = ${event.data.resetAt} where user_id = ${event.data.userId} and used_at is null`;
        return;
      case 'PasswordChanged':
        await tx`update password_reset_tokens set used_at = ${event.data.changedAt} where user_id = ${event.data.userId} and used_at is null`;
        return;
      case 'UserDeleted':
        await tx`delete from password_reset_tokens where user_id = ${event.data.userId}`;
        return;
    }
  },
});
