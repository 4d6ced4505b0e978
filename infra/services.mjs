/**
 * The backend services and their port offsets (SERVICE_PORT_BASE + offset), in one place
 * for the local runner. A service runs once services/<name>/src/server.ts exists.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SERVICE_PORT_OFFSETS = {
  identity: 1,
  study: 2,
  journal: 3,
  community: 4,
  library: 5,
  'research-export': 6,
};

const root = fileURLToPath(new URL('..', import.meta.url));

export function presentServices() {
  return Object.entries(SERVICE_PORT_OFFSETS)
    .filter(([name]) => existsSync(`${root}/services/${name}/src/server.ts`))
    .map(([name, offset]) => ({ name, offset }));
}

/**
 * Node's settings for every app as it runs compiled (npm start, the benches, the container
 * images: infra/docker/Dockerfile's CMD says the same, and a test keeps the two alike).
 * - `--import=@sleepweave/service-kit/source-maps`: stack traces name the TypeScript
 *   sources, each source map read when a stack trace first needs it. Node's own
 *   `--enable-source-maps` read and parsed every module's map as it loaded, ours and the npm
 *   packages' (pdfkit's and fontkit's 5.7 MB), and kept them (the system idle: 607 MiB with
 *   it, 589-602 without, in the same hour; docs/performance.md, "Idle memory").
 * - `--max-semi-space-size=4`: V8's young generation grows to 2 × 4 MB instead of 2 × 16 MB.
 *   It grew to its largest during each app's start and kept that while idle (15–30 MB an
 *   app); a quarter of it costs about 1% more CPU a request (docs/performance.md, "Idle
 *   memory").
 * - `--v8-pool-size=2`: V8's background threads (garbage collection, compilation) are 2, not
 *   Node's default 4: each thread keeps its own stack and malloc arena resident, and more
 *   than two do nothing more for a process on a machine of two cores (npm start's system
 *   idle: 11-23 MiB RSS less). glibc's MALLOC_TRIM_THRESHOLD_ gave back 20-25 MiB more but
 *   is not set: it also fixes malloc's mmap threshold at 128 KiB, so every megabyte buffer of
 *   a research run was mapped and unmapped anew (the run 8% slower).
 */
export const APP_NODE_ARGS = ['--import=@sleepweave/service-kit/source-maps', '--max-semi-space-size=4', '--v8-pool-size=2'];

/**
 * SERVICE_PORT_BASE as `npm start` and the commands beside it read it (4000 when not set or
 * set empty, as for every setting); null when it is no port base (its services' ports are
 * base + 1 ... base + 6).
 * @param {NodeJS.ProcessEnv} env
 * @returns {number | null}
 */
export function servicePortBase(env) {
  const base = Number(env.SERVICE_PORT_BASE || 4000);
  return Number.isInteger(base) && base >= 1 && base <= 65_529 ? base : null;
}

/** `IDENTITY_URL`, `RESEARCH_EXPORT_URL` ... */
export const urlVariable = (name) => `${name.toUpperCase().replaceAll('-', '_')}_URL`;

/**
 * The processes of one whole system, as `npm start` runs them under the supervisor: every
 * present service on 127.0.0.1 at `base` + its offset, then the gateway (on `gatewayPort`,
 * else its PORT), which learns the services' URLs from here. `suffix` names a second
 * instance (`identity-b`), `env` is added to every process's environment, `compiled` runs
 * the JavaScript of infra/build-apps.mjs instead of the TypeScript.
 *
 * @param {{ base: number, gatewayPort?: number, env?: Record<string, string>, suffix?: string, compiled?: boolean }} options
 * @returns {{ name: string, command: string, args: string[], env: Record<string, string> }[]}
 */
export function systemCommands({ base, gatewayPort, env = {}, suffix = '', compiled = false }) {
  const services = presentServices();
  const urls = Object.fromEntries(services.map(({ name, offset }) => [urlVariable(name), `http://127.0.0.1:${base + offset}`]));
  const shared = { ...env, ...urls };
  // compiled: <app>/dist/server.js from infra/build-apps.mjs; else the TypeScript through tsx
  const node = (app) =>
    compiled
      ? { command: process.execPath, args: [...APP_NODE_ARGS, `${app}/dist/server.js`] }
      : { command: process.execPath, args: ['--import', 'tsx', `${app}/src/server.ts`] };
  return [
    ...services.map(({ name, offset }) => ({
      name: `${name}${suffix}`,
      ...node(`services/${name}`),
      env: { ...shared, PORT: String(base + offset), HOST: '127.0.0.1' },
    })),
    {
      name: `gateway${suffix}`,
      ...node('gateway'),
      env: gatewayPort === undefined ? shared : { ...shared, PORT: String(gatewayPort) },
    },
  ];
}
