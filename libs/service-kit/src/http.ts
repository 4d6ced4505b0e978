import { isUtf8 } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import Fastify, {
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { isConcurrencyError } from '@sleepweave/event-store';
import { ZodError } from 'zod';
import { isSafeText, MAX_JSON_DEPTH, TEMPORARILY_UNAVAILABLE_MESSAGE, UNSAFE_TEXT_MESSAGE } from '@sleepweave/contracts';
import { HttpError, errorWordFor, isDatabaseUnavailable } from './errors.ts';
import { lazyChildLogger } from './logger.ts';
import { serializerCompilerFor, serializerModeFromEnv, type SerializerMode } from './serializer.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Carried from the gateway (x-correlation-id) into logs and event metadata. */
    correlationId: string;
  }
}

export type ServiceApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, Logger, ZodTypeProvider>;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's correlation id when it is a well-formed one, else the request's own id. */
const correlationIdOf = (header: string | string[] | undefined, requestId: string): string =>
  typeof header === 'string' && REQUEST_ID.test(header) ? header : requestId;

/**
 * Options of a route polled every few seconds (the health checks of Docker and of the
 * gateway): its requests are not logged, so the logs hold what people did; a failure of
 * the route itself (a 500) still is.
 */
export const POLLED_ROUTE = { logLevel: 'warn' } as const;

/**
 * How long a client has to send a whole request (headers and body), and how long a
 * connection may stay silent either way (a request not read, an answer not taken): past
 * either it is closed. Without them a client sending a megabyte body a byte at a time, or
 * taking an answer and never reading it, held its memory (and, at the gateway, one of a
 * service's few connections) for good. An answer being worked on longer than the idle time
 * is no concern: every route answers or fails within seconds (the research run is a job).
 */
export const REQUEST_TIMEOUT_MS = 30_000;
export const CONNECTION_IDLE_TIMEOUT_MS = 120_000;

export interface HttpAppOptions {
  logger: Logger;
  /** Services sit behind the gateway and trust its X-Forwarded-For. */
  /** As Fastify's trustProxy; a number is a hop count. */
  trustProxy?: boolean | number | string | string[];
  bodyLimit?: number;
  /** Answers unknown routes; default: JSON 404. (The gateway serves the SPA instead.) */
  notFound?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /** How answers become JSON (serializer.ts); default: `checked` under vitest, else `fast`. */
  serializer?: SerializerMode;
  /** {@link REQUEST_TIMEOUT_MS} and {@link CONNECTION_IDLE_TIMEOUT_MS} unless given (tests). */
  timeouts?: { requestMs: number; idleMs: number };
}

/**
 * A Fastify instance with the conventions every Sleepweave HTTP process shares:
 * request and correlation ids, zod schemas, JSON errors `{ error, message }`
 * (400 validation, 401, 403, 404, 409, 429; 500 without internals).
 */
export function createHttpApp(options: HttpAppOptions): ServiceApp {
  const requestTimeout = options.timeouts?.requestMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    loggerInstance: options.logger,
    trustProxy: (options.trustProxy ?? true) as FastifyServerOptions['trustProxy'],
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    requestTimeout,
    connectionTimeout: options.timeouts?.idleMs ?? CONNECTION_IDLE_TIMEOUT_MS,
    // Node checks the requests' time at this interval (30 s by default: a request could
    // then take twice its time)
    http: { connectionsCheckingInterval: Math.max(100, Math.min(5_000, requestTimeout / 4)) },
    // Errors met before a route runs, in the same `{ error, message }` as every other (not
    // Fastify's own shape, which echoed the path): an address that is not valid is a 400; a
    // path parameter longer than any id is answered as the unknown address it is.
    frameworkErrors: (error, request, reply) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return (options.notFound ?? notFoundJson)(request, reply);
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      const message = error.code === 'FST_ERR_BAD_URL' ? 'This address is not valid.' : 'The request could not be read.';
      return (reply as FastifyReply).status(status).send({ error: errorWordFor(status), message });
    },
    // What Node's parser refuses before Fastify sees a request (headers or an address over
    // 16 KB, a request that took too long, bytes that are not HTTP): the same shape again.
    clientErrorHandler: answerClientError,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const header = req.headers['x-request-id'];
      return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
    },
    // The request's logger carries its correlation id from the start: one child per
    // request, not a second one made in a hook, and made only if the request writes a line
    // (lazyChildLogger). Fastify passes {} when the route sets no options.
    childLoggerFactory: (logger, bindings, childOptions, rawRequest) => {
      const requestBindings = {
        ...bindings,
        correlationId: correlationIdOf(rawRequest.headers['x-correlation-id'], String(bindings.reqId)),
      };
      return Object.keys(childOptions).length === 0
        ? lazyChildLogger(logger as Logger, requestBindings)
        : logger.child(requestBindings, childOptions);
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Node enforces the request's time only when the headers' own (60 s) is not longer
  app.server.headersTimeout = Math.min(app.server.headersTimeout, requestTimeout);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompilerFor(options.serializer ?? serializerModeFromEnv()) as never);

  // JSON bodies: UTF-8 (bytes that are not were read as U+FFFD and kept so, her text
  // silently changed), nested at most MAX_JSON_DEPTH deep (deeper would overflow the
  // parser's stack: a 500), and every string safe text (a NUL or a lone surrogate reached
  // PostgreSQL as a 500). Each is a 400 for the client.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      const bytes = body as Buffer;
      if (!isUtf8(bytes)) throw new HttpError(400, 'validation', UNSAFE_TEXT_MESSAGE);
      // a byte order mark before the JSON is read as none (RFC 8259 lets a parser ignore it)
      const text = bytes.toString('utf8');
      done(null, parseJsonBody(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // The same rule for the path and the query string.
  // (Hooks that run for every request take a callback: an async hook costs a promise and a
  // turn of the microtask queue each.)
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.params, request.query]) {
      if (part && typeof part === 'object' && !Object.values(part).every((v) => typeof v !== 'string' || isSafeText(v))) {
        done(new HttpError(400, 'validation', UNSAFE_TEXT_MESSAGE));
        return;
      }
    }
    done();
  });

  app.decorateRequest('correlationId', '');
  app.addHook('onRequest', (request, reply, done) => {
    request.correlationId = correlationIdOf(request.headers['x-correlation-id'], request.id);
    reply.header('x-correlation-id', request.correlationId);
    done();
  });

  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      // a body that was asked for and not sent (none, or no bytes): said as such, not as zod's "expected object"
      if (err.validationContext === 'body' && (request.body === undefined || request.body === null)) {
        return reply.status(400).send({ error: 'validation', message: 'This request needs a JSON body.' });
      }
      const first = err.validation[0];
      const field = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.');
      const message = first ? (field ? `${field}: ${first.message}` : first.message) : 'Invalid request';
      return reply.status(400).send({ error: 'validation', message });
    }
    if (err instanceof ZodError) {
      const first = err.issues[0];
      const field = first?.path.join('.');
      return reply
        .status(400)
        .send({ error: 'validation', message: first ? (field ? `${field}: ${first.message}` : first.message) : 'Invalid request' });
    }
    if (err instanceof HttpError) {
      return reply.status(err.statusCode).send({ error: err.error, message: err.message });
    }
    if (isConcurrencyError(err)) {
      // an explicit expected version met a newer one: the client's view is out of date
      return reply
        .status(409)
        .send({ error: 'conflict', message: 'This was changed at the same moment by another request. Please reload and try again.' });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send({ error: 'internal', message: 'Something went wrong. Please try again.' });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ error: 'unavailable', message: TEMPORARILY_UNAVAILABLE_MESSAGE });
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return reply.status(500).send({ error: 'internal', message: 'Something went wrong. Please try again.' });
    }
    // Fastify's own 4xx (malformed JSON, wrong content type, body too large, rate limit ...)
    return reply.status(status).send({ error: errorWordFor(status), message: err.message });
  });

  app.setNotFoundHandler(options.notFound ?? notFoundJson);

  return app;
}

/** Statuses and words for the errors Node's HTTP parser meets (as Fastify's default handler, in our shape). */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The address or the headers of this request are too long.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive.' },
};

function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  // a connection reset has nothing left to answer
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'The request could not be read.' };
  // (what is not HTTP is not a validation of its fields: 'bad_request', as a body that is not JSON)
  const body = JSON.stringify({ error: status === 400 ? 'bad_request' : errorWordFor(status), message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** JSON.parse, refusing what a client must not send (see createHttpApp): 400 errors. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) throw new HttpError(400, 'validation', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    } else if (c === 125 || c === 93) depth--;
  }
  try {
    return JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === 'string' && !isSafeText(value)) throw new HttpError(400, 'validation', UNSAFE_TEXT_MESSAGE);
      // 1e999 reads as Infinity, which JSON cannot write: passed on by the gateway it became
      // null, and a night's value was taken as not recorded
      if (typeof value === 'number' && !Number.isFinite(value)) throw new HttpError(400, 'validation', NOT_FINITE_MESSAGE);
      return value;
    });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(400, 'bad_request', `Body is not valid JSON: ${(err as Error).message}`);
  }
}

export const NOT_FINITE_MESSAGE = 'Numbers must be finite (1e999 is too large to be read)';

export function notFoundJson(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({ error: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}` });
}
