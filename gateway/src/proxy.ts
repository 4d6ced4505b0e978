import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Pool, util, type Dispatcher } from 'undici';

/**
 * Request headers that describe the client's connection to the gateway, not the request
 * (RFC 9110 §7.6.1), or that the gateway sets itself: never forwarded. (undici refuses
 * `expect`, `keep-alive`, `upgrade` and `transfer-encoding` outright: forwarded, a client's
 * `Expect: 100-continue` or `Keep-Alive` made the call fail.)
 */
const REQUEST_HEADERS_DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'host',
  'content-length',
  // services trust only what the gateway sets (they take the proxy headers as the gateway's:
  // trustProxy), so a client's own say on where it came from never reaches them
  'authorization',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'forwarded',
  'x-real-ip',
  'x-correlation-id',
  'x-request-id',
  // the services' shared secret (INTERNAL_TOKEN_HEADER): only ever sent service to service
  'x-internal-token',
]);

/** Answer headers about the service's connection to the gateway: the client's connection is the gateway's own. */
const RESPONSE_HEADERS_DROPPED = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Answers up to this size (by their Content-Length) are read whole and sent in one write; larger or unsized ones stream through. */
export const BUFFERED_ANSWER_LIMIT = 64 * 1024;

/** The names a Connection header lists (those headers are about the connection too). */
function connectionTokens(value: string | string[] | undefined): Set<string> | null {
  // what nearly every request and answer says: no header named
  if (value === undefined || value === 'keep-alive' || value === 'close') return null;
  return new Set(
    (Array.isArray(value) ? value.join(',') : value)
      .toLowerCase()
      .split(',')
      .map((token) => token.trim())
      .filter(Boolean),
  );
}

/** A service's answer headers, without those about its connection to the gateway. */
function answerHeaders(raw: Buffer[]): Record<string, string | string[]> {
  const parsed = util.parseHeaders(raw) as Record<string, string | string[]>;
  const listed = connectionTokens(parsed.connection);
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const name in parsed) {
    if (RESPONSE_HEADERS_DROPPED.has(name) || listed?.has(name)) continue;
    out[name] = parsed[name]!;
  }
  return out;
}

/**
 * Receives one answer (undici's dispatch handler: no response stream, promise or async
 * resource of its own per call). An answer of known small size (or none: HEAD, 204, 304) is
 * gathered and resolved whole when complete; any other resolves at its headers, with a
 * stream of its body that undici fills as it is read.
 */
class AnswerHandler implements Dispatcher.DispatchHandler {
  private abort: ((err?: Error) => void) | null = null;
  private answer: ProxyAnswer | null = null;
  private chunks: Buffer[] | null = null;
  private stream: Readable | null = null;
  private complete = false;

  constructor(
    private readonly method: string,
    private readonly clientGone: () => boolean,
    private readonly resolve: (answer: ProxyAnswer) => void,
    private readonly reject: (err: Error) => void,
    /** Called once the call is over (answered whole, or failed). */
    private readonly over: () => void,
  ) {}

  private ended = false;
  private done(): void {
    if (this.ended) return;
    this.ended = true;
    this.over();
  }

  /**
   * Called as the call leaves the queue for a connection: one whose client has gone is not
   * sent. (undici closes that connection with it, and the next call opens another: a
   * handshake, cheaper than a call nobody waits for to a service that is already behind.)
   */
  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    if (this.clientGone()) abort(new Error('the client went away before the call was sent'));
  }

  onHeaders(statusCode: number, raw: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // 100 Continue and the like
    const headers = answerHeaders(raw);
    this.answer = { statusCode, headers, body: null };
    const length = Number(headers['content-length'] ?? Number.NaN);
    if (this.method === 'HEAD' || statusCode === 204 || statusCode === 304 || length <= BUFFERED_ANSWER_LIMIT) {
      this.chunks = [];
      return true;
    }
    this.stream = new Readable({
      read: () => resume(),
      destroy: (err, callback) => {
        // the client went away before the end: so does the call
        if (!this.complete) this.abort?.(err ?? new Error('the answer was not read to its end'));
        callback(err);
      },
    });
    this.answer.body = this.stream;
    this.resolve(this.answer);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.stream) return this.stream.push(chunk);
    this.chunks?.push(chunk);
    return true;
  }

  onComplete(): void {
    this.complete = true;
    this.done();
    if (this.stream) {
      this.stream.push(null);
      return;
    }
    const answer = this.answer!;
    const chunks = this.chunks!;
    if (this.method !== 'HEAD' && answer.statusCode !== 204 && answer.statusCode !== 304) {
      answer.body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    }
    this.resolve(answer);
  }

  onError(err: Error): void {
    this.done();
    if (this.stream) this.stream.destroy(err);
    else this.reject(err);
  }
}

export interface ProxyTarget {
  /** The service's URL (its origin is called: the path forwarded is the client's). */
  origin: string;
  /** Headers the gateway adds (its session token, correlation and request ids, the client's address). */
  headers: Record<string, string>;
  /** Whether the client's cookies go too (the routes that read one: `Route.cookies`). */
  cookies: boolean;
}

export interface ProxyAnswer {
  statusCode: number;
  headers: Record<string, string | string[]>;
  /** The whole answer (a Buffer), or its stream. */
  body: Buffer | NodeJS.ReadableStream | null;
}

/** Refused without calling: more calls to that service already wait for a connection than the gateway queues. */
export class ServiceBusy extends Error {
  readonly code = 'SW_SERVICE_BUSY';
}

export interface ServiceProxyOptions {
  /** Each service's connections (undici's Pool options). */
  pool?: Pool.Options;
  /**
   * Calls that may wait for one of a service's connections; past it a call is refused at
   * once (503). Without a bound, a service that stopped answering (or connections held by
   * clients not reading their answers) let the queue, each call with its headers and body,
   * grow for as long as requests came.
   */
  maxQueued?: number;
  /** How long a change (any method but GET and HEAD) waits for its answer to begin. */
  changeAnswerMs?: number;
}

export const PROXY_DEFAULTS = {
  // A service answers within seconds or not at all (a lock never released, a process stopped):
  // its connection is not held for undici's five minutes.
  pool: { connections: 32, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 60_000 },
  maxQueued: 1_000,
  // A change is answered before the browser gives up (web api-client's REQUEST_TIMEOUT_MS,
  // 30 s): with the gateway's 60 s, a change of a hung service was "failed" in her browser
  // and made later, once it went on; now she reads the gateway's NOT_CONFIRMED_MESSAGE.
  changeAnswerMs: 25_000,
} satisfies Required<ServiceProxyOptions>;

/**
 * Forwards API calls to the services: one keep-alive connection pool per service (undici),
 * the client's request headers filtered once, and answers of known small size read whole so
 * that they leave in one write (headers and body) instead of being piped through a stream.
 */
export class ServiceProxy {
  /** Each service's pool, and its calls under way (sent, or waiting for a connection). */
  private readonly pools = new Map<string, { pool: Pool; calls: number }>();
  private readonly poolOptions: Pool.Options;
  /** Calls to one service at once, at most: its connections, and as many again as may wait. */
  private readonly maxCalls: number;
  private readonly changeAnswerMs: number;

  constructor(options: ServiceProxyOptions = {}) {
    this.poolOptions = options.pool ?? PROXY_DEFAULTS.pool;
    this.changeAnswerMs = options.changeAnswerMs ?? PROXY_DEFAULTS.changeAnswerMs;
    this.maxCalls = (this.poolOptions.connections ?? 1) + (options.maxQueued ?? PROXY_DEFAULTS.maxQueued);
  }

  private pool(origin: string): { pool: Pool; calls: number } {
    let entry = this.pools.get(origin);
    if (!entry) {
      entry = { pool: new Pool(new URL(origin).origin, this.poolOptions), calls: 0 };
      this.pools.set(origin, entry);
    }
    return entry;
  }

  /**
   * Calls the service; rejects when it cannot be reached, does not answer, or has too many
   * calls waiting already ({@link ServiceBusy}); the caller answers 503/504.
   */
  forward(request: FastifyRequest, target: ProxyTarget): Promise<ProxyAnswer> {
    const service = this.pool(target.origin);
    if (service.calls >= this.maxCalls) return Promise.reject(new ServiceBusy(`${service.calls} calls to ${target.origin} under way`));
    const method = request.method;
    const headers: Record<string, string | string[]> = {};
    const incoming = request.headers;
    const listed = connectionTokens(incoming.connection);
    for (const name in incoming) {
      const value = incoming[name];
      if (value === undefined || REQUEST_HEADERS_DROPPED.has(name) || listed?.has(name)) continue;
      if (name === 'cookie' && !target.cookies) continue;
      headers[name] = value;
    }
    Object.assign(headers, target.headers);

    // The body as the gateway parsed and checked it (JSON: the only type it accepts); none
    // at all (Fastify reads none for GET and HEAD) goes as `content-length: 0`, without a type.
    let body: string | undefined;
    if (request.body !== undefined) body = JSON.stringify(request.body);
    else delete headers['content-type'];

    const client = request.raw.socket;
    service.calls += 1;
    return new Promise((resolve, reject) => {
      service.pool.dispatch(
        {
          method: method as Dispatcher.HttpMethod,
          path: request.url,
          headers,
          body,
          ...(isChange(method) ? { headersTimeout: this.changeAnswerMs } : {}),
        },
        new AnswerHandler(
          method,
          () => client.destroyed,
          resolve,
          reject,
          () => (service.calls -= 1),
        ),
      );
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map(({ pool }) => pool.close()));
    this.pools.clear();
  }
}

/** A request that changes something (any method but GET and HEAD). */
export const isChange = (method: string) => method !== 'GET' && method !== 'HEAD';

/** Sends a service's answer as the gateway's own. */
export function sendAnswer(reply: FastifyReply, answer: ProxyAnswer): FastifyReply {
  reply.code(answer.statusCode).headers(answer.headers);
  return reply.send(answer.body ?? undefined);
}
