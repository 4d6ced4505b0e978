import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * Calls between our processes (a service's keys, its history, the gateway's internal
 * calls and health checks) go through node:http, not `fetch`. Node's `fetch` is a copy of
 * undici of its own, with its HTTP parser compiled from WebAssembly: the first call loads
 * it and the process keeps it, some 2 MB of heap, 1.5 MB of WebAssembly memory and the
 * code compiled for both (docs/performance.md). node:http's client uses the parser its
 * server already loaded.
 */

export interface ServiceAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text (UTF-8). */
  body: string;
}

export interface ServiceCallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as it is (set its content-type in `headers`). */
  body?: string;
  /** The whole call, from connecting to the answer's last byte; then it fails. */
  timeoutMs: number;
  /** Ends the call at once (its caller is stopping): it fails with an AbortError. */
  signal?: AbortSignal;
}

/** The error of a call that did not get a whole answer in time. */
export class ServiceCallTimeout extends Error {
  override name = 'ServiceCallTimeout';
}

/**
 * One call and its whole answer. Rejects when the other end cannot be reached, the
 * connection breaks or `timeoutMs` passes (ServiceCallTimeout); any status is an answer.
 */
export function callService(url: URL, options: ServiceCallOptions): Promise<ServiceAnswer> {
  const { method = 'GET', headers = {}, body, timeoutMs, signal } = options;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, {
      method,
      // a connection for the call alone: these calls are rare, and no idle socket outlives them
      agent: false,
      signal,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(
      () => outgoing.destroy(new ServiceCallTimeout(`${method} ${url.origin}${url.pathname} got no whole answer in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    outgoing.on('error', fail);
    outgoing.once('response', (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      // closed before its end: the service went away mid-answer (or the time ran out)
      const cutOff = (err?: Error) =>
        fail(
          err instanceof ServiceCallTimeout
            ? err
            : new Error(`${method} ${url.origin}${url.pathname}: the answer was cut off`, { cause: err }),
        );
      answer.on('error', cutOff);
      answer.once('close', () => {
        if (!answer.complete) return cutOff();
        clearTimeout(timer);
        resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    outgoing.end(body);
  });
}

/** Whether an answer's status is a success (2xx), as `Response.ok`. */
export const isSuccess = (answer: ServiceAnswer): boolean => answer.status >= 200 && answer.status < 300;
