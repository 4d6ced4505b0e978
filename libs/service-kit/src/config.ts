import { z } from 'zod';

/** Only for development and tests: production refuses it. */
export const DEVELOPMENT_INTERNAL_TOKEN = 'development-only-internal-token';

/**
 * The secrets docker-compose.yml falls back to when none is set (its INTERNAL_TOKEN and
 * POSTGRES_PASSWORD): anyone can read them in this repository, so a production process
 * takes them only for a trial on the machine itself, an APP_URL on localhost.
 */
export const COMPOSE_LOCAL_SECRETS = { INTERNAL_TOKEN: 'sleepweave-local-internal-token', POSTGRES_PASSWORD: 'sleepweave-local' };

/** Settings every service shares; a service extends this with its own. */
export const BaseConfig = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** json (default, for machines) or pretty (one readable line per entry, for a terminal). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  HOST: z.string().default('127.0.0.1'),
  /** PostgreSQL server URL; each service uses its own database on it. */
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432'),
  /** Database names are `<DB_PREFIX><service>`, e.g. sleepweave_identity. */
  DB_PREFIX: z
    .string()
    .regex(/^[a-z0-9_]*$/, 'lower-case letters, digits and _ only')
    .default('sleepweave_'),
  /** One NATS server or several, comma-separated (nats://host:port; the scheme may be left out). */
  NATS_URL: z
    .string()
    .refine(isNatsServerList, 'one or more NATS servers, comma-separated, each nats://host:port (or tls://, ws://, wss://)')
    .default('nats://127.0.0.1:4222'),
  /** Isolates a deployment's streams and subjects on a shared NATS ('' in production). */
  BUS_PREFIX: z
    .string()
    .regex(/^[a-z0-9]*$/, 'lower-case letters and digits only')
    .default(''),
  /** The public origin of the app (cookies are Secure when it is https). */
  APP_URL: z.string().url().default('http://localhost:3000'),
  /** Where each service answers (JWKS from identity; every producer's integration history). */
  IDENTITY_URL: z.string().url().default('http://127.0.0.1:4001'),
  STUDY_URL: z.string().url().default('http://127.0.0.1:4002'),
  JOURNAL_URL: z.string().url().default('http://127.0.0.1:4003'),
  COMMUNITY_URL: z.string().url().default('http://127.0.0.1:4004'),
  LIBRARY_URL: z.string().url().default('http://127.0.0.1:4005'),
  RESEARCH_EXPORT_URL: z.string().url().default('http://127.0.0.1:4006'),
  /**
   * The shared secret every `/internal/*` call between services carries (a service's
   * integration history holds personal data). Production must set its own (a production
   * process refuses the development value); `npm start` uses the development value, its
   * services listening on 127.0.0.1 only.
   */
  INTERNAL_TOKEN: z.string().min(24, 'INTERNAL_TOKEN must be at least 24 characters').default(DEVELOPMENT_INTERNAL_TOKEN),
  /**
   * Connections of a service's pool, and how long one may sit idle before it is closed.
   * The budget (docs/architecture.md, "Connections"): a service holds its pool, the relay's
   * LISTEN connection and at most one more (research-export's run lock): 6 services × 7 =
   * 42 per instance, 84 for two instances of everything, under PostgreSQL's default
   * max_connections of 100; idle, a pool shrinks to nothing.
   */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(50).default(5),
  DB_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(30),
  /**
   * Her own exports (sleep as Excel or PDF, journal, research data) per user in 10 minutes
   * (per instance): each reads all her data of the range and makes a file of it, so an
   * unlimited loop of them from a few accounts could take a service's CPU.
   */
  PERSONAL_EXPORTS_PER_10_MINUTES: z.coerce.number().int().min(1).default(30),
});
export type BaseConfig = z.infer<typeof BaseConfig>;

/** A setting the app cannot start with: it names the setting and why. */
export class ConfigError extends Error {}

/**
 * The exit code of an app refused its configuration (sysexits' EX_CONFIG): `npm start`'s
 * supervisor stops instead of restarting it, since a restart would meet the same settings.
 */
export const CONFIG_ERROR_EXIT_CODE = 78;

/**
 * Reads an app's configuration at its start; a ConfigError is printed and the process
 * exits with CONFIG_ERROR_EXIT_CODE (a stack trace would bury the setting it names).
 */
export function configOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(CONFIG_ERROR_EXIT_CODE);
  }
}

/** localhost, *.localhost, 127.x.x.x and ::1: an origin only the machine itself reaches. */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}

/**
 * Whether people other than this machine's reach the app: in production, or at any APP_URL
 * off this machine whatever NODE_ENV says (a public APP_URL without NODE_ENV=production must
 * not run on the repository's development secrets, nor write reset links to a local outbox).
 */
export function isExposed(config: { NODE_ENV?: string; APP_URL?: string }): boolean {
  return config.NODE_ENV === 'production' || (config.APP_URL !== undefined && !isLoopback(config.APP_URL));
}

/** Schemes a NATS client dials. */
const NATS_SCHEMES = new Set(['nats:', 'tls:', 'ws:', 'wss:']);

/** NATS_URL as the client reads it: servers separated by commas, each a URL (or host:port). */
function isNatsServerList(value: string): boolean {
  return value.split(',').every((server) => {
    const text = server.trim();
    try {
      const url = new URL(text.includes('://') ? text : `nats://${text}`);
      return NATS_SCHEMES.has(url.protocol) && url.hostname !== '';
    } catch {
      return false;
    }
  });
}

/**
 * Each service's port above SERVICE_PORT_BASE, as `npm start` places them
 * (infra/services.mjs; a test keeps the two alike). Its `<NAME>_URL` defaults to it.
 */
export const SERVICE_PORT_OFFSETS = { identity: 1, study: 2, journal: 3, community: 4, library: 5, 'research-export': 6 } as const;

/**
 * The environment as the settings read it: a variable set empty (`PORT=`) is not set, so it
 * takes its default (an empty PORT was read as 0, any free port); with SERVICE_PORT_BASE set,
 * each `<NAME>_URL` not set is the port `npm start` gives that service (a command run beside
 * a system started with another base, such as `projections:rebuild`, called the default
 * ports: another system's services, if one ran there).
 */
function settingsOf(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const given: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  if (given.SERVICE_PORT_BASE === undefined) return given;
  const base = Number(given.SERVICE_PORT_BASE);
  if (!Number.isInteger(base) || base < 1 || base > 65_529) {
    throw new ConfigError(`Invalid configuration:\n  SERVICE_PORT_BASE: a whole number from 1 to 65529 (got '${given.SERVICE_PORT_BASE}')`);
  }
  for (const [name, offset] of Object.entries(SERVICE_PORT_OFFSETS)) {
    const variable = `${name.toUpperCase().replaceAll('-', '_')}_URL`;
    given[variable] ??= `http://127.0.0.1:${base + offset}`;
  }
  return given;
}

/** Parses the environment once; a bad setting stops the start with a message naming it. */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(settingsOf(env));
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const data = result.data as Partial<BaseConfig>;
  if (isExposed(data)) {
    const problems: string[] = [];
    const where = data.NODE_ENV === 'production' ? 'in production' : `for ${data.APP_URL}, which others reach (APP_URL)`;
    if (data.INTERNAL_TOKEN === DEVELOPMENT_INTERNAL_TOKEN) {
      problems.push(`INTERNAL_TOKEN: set a secret of your own ${where} (at least 24 characters, the same for every service)`);
    }
    // Passwords and session cookies cross the network: production is served over https
    // (Secure cookies, HSTS), by the gateway or a TLS proxy in front of it (APP_URL is what
    // the browser sees).
    if (data.NODE_ENV === 'production' && data.APP_URL !== undefined && !isLoopback(data.APP_URL)) {
      if (new URL(data.APP_URL).protocol !== 'https:') {
        problems.push(`APP_URL: production is served over https (Secure cookies, HSTS); ${data.APP_URL} is plain http`);
      }
    }
    // docker-compose.yml's fallbacks are public: fine for `docker compose up` on one's own
    // machine, refused once the app has a public address
    if (data.APP_URL !== undefined && !isLoopback(data.APP_URL)) {
      if (data.INTERNAL_TOKEN === COMPOSE_LOCAL_SECRETS.INTERNAL_TOKEN) {
        problems.push(`INTERNAL_TOKEN: docker-compose.yml's local default is public; set a secret of your own for ${data.APP_URL}`);
      }
      if (
        data.DATABASE_URL !== undefined &&
        decodeURIComponent(new URL(data.DATABASE_URL).password) === COMPOSE_LOCAL_SECRETS.POSTGRES_PASSWORD
      ) {
        problems.push(
          `DATABASE_URL: docker-compose.yml's local POSTGRES_PASSWORD is public; set a password of your own for ${data.APP_URL}`,
        );
      }
    }
    if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return result.data;
}
