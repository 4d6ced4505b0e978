import { ServerSocketMessage, type ClientSocketMessage } from '@sleepweave/contracts';

/** The gateway's WebSocket on the page's own host: wss when the page is https (docs/product.md §7). */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/** Waits before reconnect attempt n (1, 2, ...): 0.5 s doubling up to 15 s, with a little jitter. */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(15_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

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
  /** For tests. */
  createSocket?(url: string): WebSocket;
  url?: string;
}

export interface LiveSocket {
  send(message: ClientSocketMessage): void;
  close(): void;
}

/**
 * One WebSocket to the gateway that reconnects with backoff until closed. Messages that
 * are not in the shared schema are ignored. A connection closed because the session ended
 * is not retried (the next API call takes her to sign in).
 */
export function openLiveSocket(options: LiveSocketOptions): LiveSocket {
  const create = options.createSocket ?? ((url: string) => new WebSocket(url));
  const url = options.url ?? socketUrl();
  let socket: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let opened = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const send = (message: ClientSocketMessage) => {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(message));
  };

  function connect() {
    if (closed) return;
    options.onStatus?.(opened ? 'reconnecting' : 'connecting');
    const current = create(url);
    socket = current;
    current.onopen = () => {
      attempt = 0;
      const reconnected = opened;
      opened = true;
      options.onStatus?.('open');
      options.onOpen(send, reconnected);
    };
    current.onmessage = (event: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = ServerSocketMessage.safeParse(data);
      if (parsed.success) options.onMessage(parsed.data);
    };
    current.onclose = (event: CloseEvent) => {
      if (socket !== current) return;
      socket = null;
      if (closed || event.code === SESSION_ENDED_CLOSE_CODE) {
        options.onStatus?.('closed');
        return;
      }
      attempt += 1;
      options.onStatus?.('reconnecting');
      timer = setTimeout(connect, reconnectDelayMs(attempt));
    };
  }

  connect();
  return {
    send,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = socket;
      socket = null;
      if (current && (current.readyState === OPEN || current.readyState === CONNECTING)) current.close(1000, 'left');
      options.onStatus?.('closed');
    },
  };
}
