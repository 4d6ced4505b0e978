// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, openLiveSocket, PONG_WAIT_MS, reconnectDelayMs, socketUrl, STABLE_AFTER_MS } from './socket';

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
  receive(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
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
  const unreachable: number[] = [];
  const live = openLiveSocket({
    onUnreachable: (failures) => unreachable.push(failures),
    url: 'ws://app.test/ws',
    createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    onOpen: (send, reconnected) => {
      opens.push(reconnected);
      send({ type: 'join_thread', threadId });
    },
    onMessage,
  });
  return { live, onMessage, opens, unreachable };
}
const pings = (socket: FakeSocket) => socket.sent.filter((text) => text === JSON.stringify({ type: 'ping' })).length;

describe('socketUrl', () => {
  it('uses the page host, wss on https', () => {
    expect(socketUrl({ protocol: 'https:', host: 'sleep.example:8443' })).toBe('wss://sleep.example:8443/ws');
    expect(socketUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/ws');
  });
});

describe('reconnectDelayMs', () => {
  it('backs off from half a second to at most 15 s, spread over the last three quarters of it', () => {
    const most = () => 1;
    expect([1, 2, 3, 4, 10].map((n) => reconnectDelayMs(n, most))).toEqual([500, 1000, 2000, 4000, 15000]);
    expect([1, 10].map((n) => reconnectDelayMs(n, () => 0))).toEqual([125, 3750]);
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

  it('pings while open, and makes the connection again when nothing comes back (a laptop woke up, the network changed)', async () => {
    const { live, opens } = start();
    const first = FakeSocket.made[0]!;
    first.open();
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    expect(pings(first)).toBe(1);
    first.receive({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(PONG_WAIT_MS);
    expect(FakeSocket.made).toHaveLength(1); // it answered: still the same connection

    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS - PONG_WAIT_MS);
    expect(pings(first)).toBe(2);
    await vi.advanceTimersByTimeAsync(PONG_WAIT_MS); // silence: the browser still says open
    expect(first.closedWith).toBe(4000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1]!.open();
    expect(opens).toEqual([false, true]); // joined again, so what was missed is fetched
    first.drop(); // the old one's late close changes nothing
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.made).toHaveLength(2);
    live.close();
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS * 3);
    expect(pings(FakeSocket.made[1]!)).toBe(0);
  });

  it('checks the connection at once when the browser is back online', () => {
    const { live } = start();
    const socket = FakeSocket.made[0]!;
    socket.open();
    window.dispatchEvent(new Event('online'));
    expect(pings(socket)).toBe(1);
    live.close();
  });

  it('takes the connection as lost at once when the browser goes offline, and makes it again at once when back online', async () => {
    const statuses: string[] = [];
    const live = openLiveSocket({
      url: 'ws://app.test/ws',
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
      onOpen: () => undefined,
      onMessage: () => undefined,
      onStatus: (status) => statuses.push(status),
    });
    FakeSocket.made[0]!.open();
    window.dispatchEvent(new Event('offline'));
    // no longer "Live" under the offline banner: not after the probe's wait, at once
    expect(FakeSocket.made[0]!.closedWith).toBe(4000);
    expect(statuses.at(-1)).toBe('reconnecting');
    // attempts while offline fail, and the backoff grows
    for (let i = 1; i <= 4; i++) {
      await vi.advanceTimersByTimeAsync(reconnectDelayMs(i, () => 1));
      FakeSocket.made.at(-1)!.drop();
    }
    const made = FakeSocket.made.length;
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.made).toHaveLength(made + 1); // at once, not after the backoff
    live.close();
  });

  it('checks the connection at once when the browser is back online or the tab is shown again', async () => {
    const { live } = start();
    const first = FakeSocket.made[0]!;
    first.open();
    window.dispatchEvent(new Event('offline'));
    expect(first.closedWith).toBe(4000);
    await vi.advanceTimersByTimeAsync(1_000);
    const second = FakeSocket.made[1]!;
    second.open();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(pings(second)).toBe(1);
    second.receive({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(PONG_WAIT_MS);
    expect(FakeSocket.made).toHaveLength(2);
    // answered a moment ago, then the lid closed: on waking she is checked at once all the same
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS - PONG_WAIT_MS);
    expect(pings(second)).toBe(2);
    second.receive({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(1_000);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(pings(second)).toBe(3);
    await vi.advanceTimersByTimeAsync(PONG_WAIT_MS);
    expect(second.closedWith).toBe(4000);
    await vi.advanceTimersByTimeAsync(1_000);
    const third = FakeSocket.made[2]!;
    third.open();
    live.close();
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('offline'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(pings(third)).toBe(0); // closed: no longer listening
  });

  it('keeps backing off from a connection that opens and drops at once, and starts over after one that stayed up', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    try {
      const { live } = start();
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        const socket = FakeSocket.made.at(-1)!;
        socket.open();
        socket.drop(4413);
        const before = FakeSocket.made.length;
        let waited = 0;
        while (FakeSocket.made.length === before) {
          await vi.advanceTimersByTimeAsync(100);
          waited += 100;
        }
        waits.push(waited);
      }
      expect(waits).toEqual([500, 1000, 2000, 4000]);
      const stable = FakeSocket.made.at(-1)!;
      stable.open();
      stable.receive({ type: 'pong' });
      await vi.advanceTimersByTimeAsync(STABLE_AFTER_MS);
      stable.drop();
      await vi.advanceTimersByTimeAsync(500);
      expect(FakeSocket.made.at(-1)).not.toBe(stable);
      live.close();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('says how many attempts in a row failed before opening (a refused upgrade looks like any network error)', async () => {
    const { live, unreachable } = start();
    for (let i = 0; i < 3; i++) {
      FakeSocket.made.at(-1)!.drop();
      await vi.advanceTimersByTimeAsync(15_000);
    }
    expect(unreachable).toEqual([1, 2, 3]);
    FakeSocket.made.at(-1)!.open();
    FakeSocket.made.at(-1)!.drop();
    await vi.advanceTimersByTimeAsync(15_000);
    FakeSocket.made.at(-1)!.drop();
    expect(unreachable).toEqual([1, 2, 3, 1]);
    live.close();
  });
});
