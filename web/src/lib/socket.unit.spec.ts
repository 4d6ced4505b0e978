import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLiveSocket, reconnectDelayMs, socketUrl } from './socket';

class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const threadId = '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10';

beforeEach(() => {
  FakeSocket.made = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function start() {
  const onMessage = vi.fn();
  const opens: boolean[] = [];
  const live = openLiveSocket({
    url: 'ws://app.test/ws',
    createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    onOpen: (send, reconnected) => {
      opens.push(reconnected);
      send({ type: 'join_thread', threadId });
    },
    onMessage,
  });
  return { live, onMessage, opens };
}

describe('socketUrl', () => {
  it('uses the page host, wss on https', () => {
    expect(socketUrl({ protocol: 'https:', host: 'sleep.example:8443' })).toBe('wss://sleep.example:8443/ws');
    expect(socketUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/ws');
  });
});

describe('reconnectDelayMs', () => {
  it('backs off from half a second to at most 15 s', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 10].map((n) => reconnectDelayMs(n, mid))).toEqual([500, 1000, 2000, 4000, 15000]);
  });
});

describe('openLiveSocket', () => {
  it('joins on open, hands on valid messages only, and reconnects with backoff after a drop', async () => {
    const { live, onMessage, opens } = start();
    const first = FakeSocket.made[0]!;
    first.open();
    expect(first.sent).toEqual([JSON.stringify({ type: 'join_thread', threadId })]);
    first.onmessage?.({ data: JSON.stringify({ type: 'joined', threadId }) });
    first.onmessage?.({ data: '{"type":"mystery"}' });
    first.onmessage?.({ data: 'not json' });
    expect(onMessage.mock.calls).toEqual([[{ type: 'joined', threadId }]]);

    first.drop();
    expect(FakeSocket.made).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1]!.open();
    expect(opens).toEqual([false, true]);
    expect(FakeSocket.made[1]!.sent).toHaveLength(1);
    live.close();
  });

  it('stops for good when closed, and does not retry when the session ended', async () => {
    const a = start();
    FakeSocket.made[0]!.open();
    a.live.close();
    expect(FakeSocket.made[0]!.closedWith).toBe(1000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.made).toHaveLength(1);

    start();
    FakeSocket.made[1]!.open();
    FakeSocket.made[1]!.drop(4401);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.made).toHaveLength(2);
  });
});
