import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, it } from 'vitest';
import { ThreadAlreadyExists, threadDecider } from './business-logic.ts';
import type { ThreadEvent } from './thread.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const threadId = '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10';
const create = { type: 'CreateThread' as const, data: { threadId, name: 'Hot flashes at 3 am', isDirect: false, pinned: false, now } };
const created: ThreadEvent = {
  type: 'ThreadCreated',
  data: { threadId, name: 'Hot flashes at 3 am', isDirect: false, pinned: false, createdAt: now.toISOString() },
};

const spec = deciderSpec(threadDecider);

describe('thread decider', () => {
  it('creates a thread', () => {
    spec.given([]).when(create).then([created]);
  });

  it('refuses to create the same thread twice (the welcome thread relies on it)', () => {
    spec.given([created]).when(create).thenThrows(ThreadAlreadyExists);
  });
});
