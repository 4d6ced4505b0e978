import type { EventEnvelope } from '@sleepweave/contracts';
import { toEnvelope, type RecordedEvent } from '@sleepweave/event-store';
import type { AccountDeletionEvent } from '../account-deletion/account-deletion.ts';
import type { SessionEvent } from '../sessions/session.ts';
import type { UserEvent } from '../users/user.ts';

const source = 'identity';

/**
 * Domain events -> integration events. Password hashes, refresh tokens and reset-link
 * hashes never leave; password changes and reset links are private (null).
 */
export function toIntegration(recorded: RecordedEvent): EventEnvelope | null {
  const event = recorded as RecordedEvent<UserEvent | SessionEvent | AccountDeletionEvent>;
  switch (event.type) {
    case 'UserRegistered': {
      const { passwordHash: _secret, ...data } = event.data;
      return toEnvelope(event, { source, type: 'identity.user.registered', data: { ...data, profileImageUrl: null } });
    }
    case 'ProfileUpdated':
      return toEnvelope(event, { source, type: 'identity.user.profile_updated', data: event.data });
    case 'RoleGranted':
      return toEnvelope(event, {
        source,
        type: 'identity.user.role_granted',
        data: {
          ...event.data,
          grantedBy: event.data.grantedBy ?? null,
          // before `via` was recorded: by an admin when one is named
          via: event.data.via ?? (event.data.grantedBy ? 'admin' : 'command_line'),
        },
      });
    case 'SessionRevoked':
      return toEnvelope(event, { source, type: 'identity.session.revoked', data: event.data });
    case 'UserDeleted':
      // No personal data: ids and the time only. The admin who deleted the account is the
      // event's actor (its metadata; cleared once her own account is deleted), for the audit trail.
      return toEnvelope(event, {
        source,
        type: 'identity.user.deleted',
        data: {
          userId: event.data.userId,
          deletedAt: event.data.deletedAt,
          via: event.data.deletedBy,
          deletedBy: event.data.deletedBy === 'admin' ? (event.metadata.userId ?? null) : null,
        },
      });
    default:
      return null;
  }
}
