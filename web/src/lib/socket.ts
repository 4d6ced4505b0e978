import { ServerSocketMessage, type ClientSocketMessage } from '@sleepweave/contracts';

/** The gateway's WebSocket on the page's own host: wss when the page is https (docs/product.md §7). */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/**
 * Waits before reconnect attempt n (1, 2, ...): up to 0.5 s doubling up to 15 s, spread
 * over the last three quarters of that, so that the tabs a gateway restart dropped all at
 * once do not all come back in the same moment.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(15_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.25 + 0.75 * random()));
}

/**
 * While open, a `ping` every HEARTBEAT_MS; a connection that then brings nothing at all for
 * PONG_WAIT_MS is taken as gone and made again. A laptop that slept, or a network that
 * changed under it, can leave a socket the browser still calls open although nothing will
 * ever arrive on it (the gateway dropped its end): without this the thread said Live and
 * missed every message until a reload. (The gateway's own pings are not seen by a page.)
 */
export const HEARTBEAT_MS = 25_000;
export const PONG_WAIT_MS = 10_000;
/** A connection that stayed up this long starts the backoff over when it drops; one that dropped sooner does not. */
export const STABLE_AFTER_MS = 10_000;

/** Closed by the gateway because her session ended: reconnecting would not help. */
export const SESSION_ENDED_CLOSE_CODE = 4401;

const CONNECTING = 0;
const OPEN = 1;

export type SocketStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface LiveSocketOptions {
  /** Called on every (re)connection; send what this connection wants to follow. */
  onOpen(send: (message: ClientSocketMessage) => void, reconnected: boolean): void;
  onMessage(message: ServerSocketMessage): void;
  onStatus?(status: SocketStatus): void;
  /**
   * Called when an attempt failed before the connection opened, with how many in a row did.
   * A browser is not told why (a refused upgrade, a 401 once her session ended elsewhere,
   * comes as 1006 like a network error): the caller can ask the API, which says.
   */
  onUnreachable?(failures: number): void;
  /** For tests. */
  createSocket?(url: string): WebSocket;
  url?: string;
}

export interface LiveSocket {
  send(message: ClientSocketMessage): void;
  close(): void;
}

/**
 * One WebSocket to the gateway that reconnects with backoff until closed, and checks that
 * an open one still carries anything (HEARTBEAT_MS; at once when the browser comes back
 * online or the tab is shown again); offline, it is lost at once and made again as the
 * browser is back online. Messages that are not in the shared schema are
 * ignored. A connection closed because the session ended is not retried (the next API call
 * takes her to sign in).
 */
export function openLiveSocket(options: LiveSocketOptions): LiveSocket {
  const create = options.createSocket ?? ((url: string) => new WebSocket(url));
  const url = options.url ?? socketUrl();
  let socket: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let failures = 0;
  let opened = false;
  let openedAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let pongWait: ReturnType<typeof setTimeout> | null = null;

  const send = (message: ClientSocketMessage) => {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(message));
  };

  function stopHeartbeat() {
    if (heartbeat) clearInterval(heartbeat);
    if (pongWait) clearTimeout(pongWait);
    heartbeat = pongWait = null;
  }

  /**
   * Pings, and takes the connection as gone if nothing at all comes back in time (any frame
   * ends the wait: a pong, a notice, an answer).
   */
  function probe() {
    const current = socket;
    if (!current || current.readyState !== OPEN || pongWait) return;
    send({ type: 'ping' });
    pongWait = setTimeout(() => {
      pongWait = null;
      lost(current, 1006);
    }, PONG_WAIT_MS);
  }

  /** The connection is over (closed, or found silent): another is made after the backoff, unless that would not help. */
  function lost(current: WebSocket, code: number) {
    if (socket !== current) return;
    socket = null;
    stopHeartbeat();
    // a silent one is not waited for: its close handshake would never be answered
    if (current.readyState === OPEN || current.readyState === CONNECTING) current.close(4000, 'no answer');
    if (closed || code === SESSION_ENDED_CLOSE_CODE) {
      options.onStatus?.('closed');
      return;
    }
    if (openedAt > 0 && Date.now() - openedAt >= STABLE_AFTER_MS) attempt = 0;
    if (openedAt === 0) options.onUnreachable?.((failures += 1));
    openedAt = 0;
    attempt += 1;
    options.onStatus?.('reconnecting');
    timer = setTimeout(connect, reconnectDelayMs(attempt));
  }

  function connect() {
    timer = null;
    if (closed) return;
    options.onStatus?.(opened ? 'reconnecting' : 'connecting');
    const current = create(url);
    socket = current;
    current.onopen = () => {
      const reconnected = opened;
      opened = true;
      openedAt = Date.now();
      failures = 0;
      heartbeat = setInterval(probe, HEARTBEAT_MS);
      options.onStatus?.('open');
      options.onOpen(send, reconnected);
    };
    current.onmessage = (event: MessageEvent) => {
      if (socket !== current) return;
      // it answered: the next check (a tab shown again, the network back) pings at once
      if (pongWait) clearTimeout(pongWait);
      pongWait = null;
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = ServerSocketMessage.safeParse(data);
      if (parsed.success) options.onMessage(parsed.data);
    };
    current.onclose = (event: CloseEvent) => lost(current, event.code);
  }

  // Back on the network, or back to the tab (a laptop woken up): is the connection still there?
  const check = () => {
    if (typeof document === 'undefined' || document.visibilityState === 'visible') probe();
  };
  // Off the network, nothing can come: the connection is lost at once (it said "Live" under
  // the offline banner for the probe's wait, 10 s); back on, made again at once, not after
  // the backoff that the attempts made meanwhile ran up.
  const offline = () => {
    if (socket) lost(socket, 1006);
  };
  const online = () => {
    if (timer && !closed) {
      clearTimeout(timer);
      connect();
    } else check();
  };
  const browser = typeof window !== 'undefined';
  if (browser) {
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    document.addEventListener('visibilitychange', check);
  }

  connect();
  return {
    send,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      stopHeartbeat();
      if (browser) {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
        document.removeEventListener('visibilitychange', check);
      }
      const current = socket;
      socket = null;
      if (current && (current.readyState === OPEN || current.readyState === CONNECTING)) current.close(1000, 'left');
      options.onStatus?.('closed');
    },
  };
}
