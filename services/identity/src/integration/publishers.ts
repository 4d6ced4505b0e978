import type { EventEnvelope } from '@sleepweave/contracts';
import { toEnvelope, type RecordedEvent } from '@sleepweave/event-store';
import type { SessionEvent } from '../sessions/session.ts';
import type { UserEvent } from '../users/user.ts';

const source = 'identity';

/** Domain events -> integration events. Password hashes and refresh tokens never leave. */
export function toIntegration(recorded: RecordedEvent): EventEnvelope | null {
  const event = recorded as RecordedEvent<UserEvent | SessionEvent>;
  switch (event.type) {
    case 'UserRegistered': {
      const { passwordHash: _secret, ...data } = event.data;
      return toEnvelope(event, { source, type: 'identity.user.registered', data: { ...data, profileImageUrl: null } });
    }
    case 'RoleGranted':
      return toEnvelope(event, { source, type: 'identity.user.role_granted', data: event.data });
    case 'SessionRevoked':
      return toEnvelope(event, { source, type: 'identity.session.revoked', data: event.data });
    default:
      return null;
  }
}
