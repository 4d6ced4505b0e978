import type { FastifyReply, FastifyRequest } from 'fastify';
import { Pool } from 'undici';

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
  // services trust only what the gateway sets
  'authorization',
  'x-forwarded-for',
  'x-correlation-id',
  'x-request-id',
]);

/** Answer headers about the service's connection to the gateway: the client's connection is the gateway's own. */
const RESPONSE_HEADERS_DROPPED = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Answers up to this size (by their Content-Length) are read whole and sent in one write; larger or unsized ones stream through. */
export const BUFFERED_ANSWER_LIMIT = 64 * 1024;

/** The names a Connection header lists (those headers are about the connection too). */
function connectionTokens(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(',') : value)
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
}

export interface ProxyTarget {
  /** The service's URL (its origin is called: the path forwarded is the client's). */
  origin: string;
  /** Headers the gateway adds (its session token, correlation and request ids, the client's address). */
  headers: Record<string, string>;
  /** Whether the client's cookies go too (identity's routes read and set them). */
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
  async forward(request: FastifyRequest, target: ProxyTarget): Promise<ProxyAnswer> {
    const method = request.method;
    const headers: Record<string, string | string[]> = {};
    const incoming = request.headers;
    const listed = incoming.connection === undefined ? null : new Set(connectionTokens(incoming.connection));
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

    const answer = await this.pool(target.origin).request({ method: method as 'GET', path: request.url, headers, body });
    const out: Record<string, string | string[]> = {};
    const upstream = answer.headers;
    const listedBack = upstream.connection === undefined ? null : new Set(connectionTokens(upstream.connection));
    for (const name in upstream) {
      const value = upstream[name];
      if (value === undefined || RESPONSE_HEADERS_DROPPED.has(name) || listedBack?.has(name)) continue;
      out[name] = value;
    }

    const length = Number(upstream['content-length'] ?? Number.NaN);
    if (method === 'HEAD' || answer.statusCode === 204 || answer.statusCode === 304) {
      await answer.body.dump();
      return { statusCode: answer.statusCode, headers: out, body: null };
    }
    if (length <= BUFFERED_ANSWER_LIMIT) {
      return { statusCode: answer.statusCode, headers: out, body: Buffer.from(await answer.body.arrayBuffer()) };
    }
    return { statusCode: answer.statusCode, headers: out, body: answer.body };
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
