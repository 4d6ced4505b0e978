import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, it } from 'vitest';
import { STUDY_TEAM_ID } from '@sleepweave/contracts';
import { TeamThreadMissing, ThreadAlreadyExists, threadDecider } from './business-logic.ts';
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

  const messageId = '8a2e9c41-4f0b-4c55-9d6a-1b3e5f7a9c02';
  const postTeam = { type: 'PostTeamMessage' as const, data: { threadId, messageId, body: 'Welcome!', now } };
  const teamPosted: ThreadEvent = {
    type: 'TeamMessagePosted',
    data: { messageId, threadId, senderId: STUDY_TEAM_ID, body: 'Welcome!', postedAt: now.toISOString() },
  };

  it('records a message of the study team in the thread', () => {
    spec.given([created]).when(postTeam).then([teamPosted]);
  });

  it('records a team message once: the same message again decides nothing (the welcome message relies on it)', () => {
    spec.given([created, teamPosted]).when(postTeam).then([]);
  });

  it('posts a team message only in a thread that exists', () => {
    spec.given([]).when(postTeam).thenThrows(TeamThreadMissing);
  });
});
