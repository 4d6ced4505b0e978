import { testEnvelope } from '@sleepweave/bus/testing';
import { createLogger } from '@sleepweave/service-kit';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { MAX_BUFFERED_BYTES, ThreadHub } from './community-live.ts';

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
