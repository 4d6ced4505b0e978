import type { EventEnvelope } from '@sleepweave/contracts';
import { toEnvelope, type RecordedEvent } from '@sleepweave/event-store';
import type { MembershipEvent } from '../memberships/membership.ts';
import type { ParticipantEvent } from '../study-completions/participant.ts';
import type { ThreadEvent } from '../threads/thread.ts';

const source = 'community';

/**
 * Domain events -> integration events. Message bodies stay here: the bus says that a
 * message was posted (the gateway tells the thread's open sockets, which refetch it
 * through the API, where access is checked). Study participations are private.
 */
export function toIntegration(recorded: RecordedEvent): EventEnvelope | null {
  const event = recorded as RecordedEvent<ThreadEvent | MembershipEvent | ParticipantEvent>;
  switch (event.type) {
    case 'ThreadCreated':
      return toEnvelope(event, { source, type: 'community.thread.created', data: event.data });
    case 'MemberJoined':
      return toEnvelope(event, { source, type: 'community.member.joined', data: event.data });
    case 'MessagePosted':
    case 'TeamMessagePosted': {
      const { messageId, threadId, senderId, postedAt } = event.data;
      return toEnvelope(event, { source, type: 'community.message.posted', data: { messageId, threadId, senderId, createdAt: postedAt } });
    }
    default:
      return null;
  }
}
