import { deciderSpec, fold } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import { membershipDecider, ThreadAccessDenied, ThreadNotFound } from './business-logic.ts';
import type { MembershipEvent } from './membership.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const threadId = '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10';
const userId = '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f';
const messageId = '0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4';
const publicThread = { isDirect: false };
const directThread = { isDirect: true };

const joined = (role: 'creator' | 'member' = 'member'): MembershipEvent => ({
  type: 'MemberJoined',
  data: { threadId, userId, role, joinedAt: now.toISOString() },
});
const posted: MembershipEvent = {
  type: 'MessagePosted',
  data: { messageId, threadId, senderId: userId, body: 'Linen helped me a lot.', postedAt: now.toISOString() },
};
const post = (thread: { isDirect: boolean } | null) => ({
  type: 'PostMessage' as const,
  data: { threadId, userId, thread, messageId, body: 'Linen helped me a lot.', now },
});
const join = (thread: { isDirect: boolean } | null) => ({ type: 'JoinThread' as const, data: { threadId, userId, thread, now } });

const spec = deciderSpec(membershipDecider);

describe('membership decider', () => {
  it('opening a public thread makes her a member, once', () => {
    spec.given([]).when(join(publicThread)).then([joined()]);
    spec.given([joined()]).when(join(publicThread)).then([]);
  });

  it('lets only members open a direct thread', () => {
    spec.given([]).when(join(directThread)).thenThrows(ThreadAccessDenied);
    spec.given([joined()]).when(join(directThread)).then([]);
  });

  it('posting in a public thread makes a newcomer a member first', () => {
    spec.given([]).when(post(publicThread)).then([joined(), posted]);
    spec.given([joined()]).when(post(publicThread)).then([posted]);
  });

  it('refuses a post in a direct thread from a non-member', () => {
    spec.given([]).when(post(directThread)).thenThrows(ThreadAccessDenied);
    spec
      .given([joined('creator')])
      .when(post(directThread))
      .then([posted]);
  });

  it('adds a creator or an invited member once', () => {
    const add = { type: 'AddMember' as const, data: { threadId, userId, role: 'creator' as const, now } };
    spec
      .given([])
      .when(add)
      .then([joined('creator')]);
    spec
      .given([joined('creator')])
      .when(add)
      .then([]);
  });

  it('refuses to join or write in a thread that does not exist', () => {
    spec.given([]).when(join(null)).thenThrows(ThreadNotFound);
    spec.given([joined()]).when(post(null)).thenThrows(ThreadNotFound);
  });

  it('decides on her joining alone: her messages change nothing, so only MemberJoined is loaded', () => {
    const history: MembershipEvent[] = [joined('creator'), ...Array.from({ length: 4_000 }, () => posted)];
    // Folding what the store loads (evolvesOn) gives the state that folding everything gives.
    const loaded = history.filter((e) => membershipDecider.evolvesOn?.includes(e.type));
    expect(loaded).toEqual([joined('creator')]);
    expect(fold(membershipDecider, loaded)).toEqual(fold(membershipDecider, history));
    // ...and her 4,000th message is decided as her first was.
    spec.given(history).when(post(directThread)).then([posted]);
    spec.given(loaded).when(post(directThread)).then([posted]);
  });
});
