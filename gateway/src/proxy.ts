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
    private readonly resolve: (answer: ProxyAnswer) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
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

/**
 * Forwards API calls to the services: one keep-alive connection pool per service (undici),
 * the client's request headers filtered once, and answers of known small size read whole so
 * that they leave in one write (headers and body) instead of being piped through a stream.
 */
export class ServiceProxy {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly poolOptions: Pool.Options = { connections: 32, pipelining: 1 }) {}

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(new URL(origin).origin, this.poolOptions);
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /** Calls the service; rejects when it cannot be reached or does not answer (the caller answers 503/504). */
  forward(request: FastifyRequest, target: ProxyTarget): Promise<ProxyAnswer> {
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

    const pool = this.pool(target.origin);
    return new Promise((resolve, reject) => {
      pool.dispatch(
        { method: method as Dispatcher.HttpMethod, path: request.url, headers, body },
        new AnswerHandler(method, resolve, reject),
      );
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }
}

/** Sends a service's answer as the gateway's own. */
export function sendAnswer(reply: FastifyReply, answer: ProxyAnswer): FastifyReply {
  reply.code(answer.statusCode).headers(answer.headers);
  return reply.send(answer.body ?? undefined);
}
