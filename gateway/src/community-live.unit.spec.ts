import { testEnvelope } from '@sleepweave/bus/testing';
import { createLogger } from '@sleepweave/service-kit';
import { describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import type { SubscriptionState } from '@sleepweave/bus';
import { LIVE_PAUSED_MESSAGE, MAX_BUFFERED_BYTES, ThreadHub } from './community-live.ts';

/** A socket as the hub sees it: open, with what waits to be sent. */
function fakeSocket(bufferedAmount: number) {
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount,
    sent: [] as string[],
    terminated: false,
    send(text: string) {
      socket.sent.push(text);
    },
    terminate() {
      socket.terminated = true;
      socket.readyState = 3;
    },
  };
  return socket;
}

describe('ThreadHub.deliver', () => {
  it('sends a new message notice to its followers, and terminates one that has stopped reading instead of buffering more', () => {
    const hub = new ThreadHub({ communityUrl: undefined, internalToken: 'unused-here', logger: createLogger('test', 'silent') });
    const threadId = '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10';
    const reading = fakeSocket(0);
    const stalled = fakeSocket(MAX_BUFFERED_BYTES + 1);
    hub.join(threadId, reading as unknown as WebSocket);
    hub.join(threadId, stalled as unknown as WebSocket);
    const envelope = testEnvelope('community.message.posted', {
      threadId,
      messageId: '0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b1',
      senderId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      createdAt: new Date().toISOString(),
    });
    expect(hub.deliver(envelope)).toBe(1);
    expect(reading.sent).toHaveLength(1);
    expect(JSON.parse(reading.sent[0]!)).toMatchObject({ type: 'new_message', threadId });
    expect(stalled.sent).toEqual([]);
    expect(stalled.terminated).toBe(true);
  });
});

describe('ThreadHub, when new messages stop reaching it', () => {
  it('tells each follower once that live updates are paused, and is not live until its watch follows again', () => {
    vi.useFakeTimers();
    try {
      const hub = new ThreadHub({ communityUrl: undefined, internalToken: 'unused-here', logger: createLogger('test', 'silent') });
      const threadId = '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10';
      const socket = fakeSocket(0);
      hub.join(threadId, socket as unknown as WebSocket);
      let state: SubscriptionState = 'following';
      hub.attach({ state: () => state, stop: async () => {} }, 100);
      expect(hub.isLive()).toBe(true);
      vi.advanceTimersByTime(300);
      expect(socket.sent).toEqual([]);

      state = 'recovering'; // NATS away
      vi.advanceTimersByTime(500);
      expect(hub.isLive()).toBe(false);
      expect(socket.sent.map((text) => JSON.parse(text))).toEqual([{ type: 'error', threadId, message: LIVE_PAUSED_MESSAGE }]);

      state = 'following';
      vi.advanceTimersByTime(300);
      expect(hub.isLive()).toBe(true);
      expect(socket.sent).toHaveLength(1);
      state = 'recovering';
      vi.advanceTimersByTime(100);
      expect(socket.sent).toHaveLength(2);
      hub.detach();
    } finally {
      vi.useRealTimers();
    }
  });
});
