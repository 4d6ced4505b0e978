import { defineProjection } from '@sleepweave/event-store';
import type { MembershipEvent } from '../memberships/membership.ts';
import type { ThreadEvent } from './thread.ts';

/** The `message_threads` read model; its creator comes from her (creator) membership. */
export const threadsProjection = defineProjection<ThreadEvent | MembershipEvent>({
  name: 'threads',
  tables: ['message_threads'],
  handles: ['ThreadCreated', 'MemberJoined'],
  async apply(tx, event) {
    switch (event.type) {
      case 'ThreadCreated': {
        const d = event.data;
        await tx`
          insert into message_threads (id, name, is_direct, pinned, created_at)
          values (${d.threadId}, ${d.name}, ${d.isDirect}, ${d.pinned}, ${d.createdAt})`;
        return;
      }
      case 'MemberJoined':
        if (event.data.role === 'creator') {
          await tx`update message_threads set created_by = ${event.data.userId} where id = ${event.data.threadId}`;
        }
        return;
    }
  },
});
