import pino, { type Logger } from 'pino';

export type { Logger };

/** Query parameters whose values never reach a log line (password-reset links carry `token`). */
const SECRET_PARAMS = /([?&](?:token|refreshToken|password)=)[^&#\s"']*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/**
 * A request's URL as its log line keeps it: the path, and the query's parameter names with
 * every value redacted. Values are what people type (the admin's user search holds names and
 * e-mails; the library's search, health topics next to an address) or encode it (a cursor of
 * a list sorted by name); the log keeps method, path, status and address
 * (docs/data-protection.md).
 */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const names = url
    .slice(query + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0 ? pair : `${pair.slice(0, equals)}=[redacted]`;
    });
  return `${url.slice(0, query)}${names.length > 0 ? `?${names.join('&')}` : ''}`;
}

/** Every string of a log entry with secret URL parameters redacted, wherever a library put the URL. */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.includes('=') ? redactUrl(value) : value;
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  // plain objects only: requests, errors and the like go to their serializers as they are
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrub(item, depth + 1);
  return out;
}

/** Fields whose values never reach a log line. */
const SECRET_FIELDS = ['password', 'passwordHash', 'refreshToken', 'token'];

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/**
 * The logger of a process: JSON lines (or one readable line each), with secrets kept out:
 * cookies, authorization and internal-token headers, passwords, and secret URL parameters
 * in any string (a second line of defence: URLs with a reset token should not be logged).
 */
export function createLogger(
  service: string,
  level: string = 'info',
  format: 'json' | 'pretty' = 'json',
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    name: service,
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-internal-token"]',
        'res.headers["set-cookie"]',
        // a secret field at the top of an entry or one level down (pino's `*` is one level)
        ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
      ],
      censor: '[redacted]',
    },
    formatters: { log: (entry) => scrub(entry) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactUrl(arg) : arg)) as Parameters<typeof method>);
      },
    },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: req.url === undefined ? undefined : loggedUrl(req.url),
        host: req.host ?? req.hostname,
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
    },
    ...(format === 'pretty' && !destination
      ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname,name', translateTime: 'HH:MM:ss', singleLine: true } } }
      : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type LevelName = (typeof LEVELS)[number];

interface LazyChildState {
  parent: Logger;
  bindings: pino.Bindings;
  child: Logger | undefined;
}
const lazyState = Symbol('lazyChild');
type LazyChild = Logger & { [lazyState]: LazyChildState };

const realChild = (lazy: LazyChild): Logger => {
  const state = lazy[lazyState];
  return (state.child ??= state.parent.child(state.bindings));
};

/** Per parent logger: the prototype of its lazy children (their methods, made once). */
const lazyPrototypes = new WeakMap<Logger, object>();

function lazyPrototype(parent: Logger): object {
  let prototype = lazyPrototypes.get(parent);
  if (prototype) return prototype;
  prototype = Object.create(parent) as object;
  const methods: Partial<Record<LevelName | 'child' | 'bindings' | 'setBindings', unknown>> = {
    child(this: LazyChild, bindings: pino.Bindings, options?: pino.ChildLoggerOptions) {
      return realChild(this).child(bindings, options);
    },
    bindings(this: LazyChild) {
      return realChild(this).bindings();
    },
    setBindings(this: LazyChild, bindings: pino.Bindings) {
      realChild(this).setBindings(bindings);
    },
  };
  for (const level of LEVELS) {
    methods[level] = function (this: LazyChild, ...args: unknown[]) {
      if (!this[lazyState].parent.isLevelEnabled(level)) return;
      (realChild(this)[level] as (...line: unknown[]) => void)(...args);
    };
  }
  Object.assign(prototype, methods);
  lazyPrototypes.set(parent, prototype);
  return prototype;
}

/**
 * `parent.child(bindings)`, made only when it first writes a line. A pino child serializes
 * (and redacts) its bindings when it is made, about 10 µs; one is made for every request, and
 * most requests write no line at all (below `info`, Fastify's own request lines are off).
 */
export function lazyChildLogger(parent: Logger, bindings: pino.Bindings): Logger {
  const lazy = Object.create(lazyPrototype(parent)) as LazyChild;
  lazy[lazyState] = { parent, bindings, child: undefined };
  return lazy;
}
