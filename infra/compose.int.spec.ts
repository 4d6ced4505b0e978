/**
 * docker-compose.yml stays valid and complete: `docker-compose config -q` accepts it (no
 * Docker engine needed), and every backend service in the repository (a
 * services/<name>/src/server.ts) has a compose service of the same name, built from the
 * shared Dockerfile, wired to Postgres and NATS and to the gateway.
 *
 * Needs the docker-compose CLI (Debian package docker-compose, v1.29; CI installs it).
 * Without it this test fails on purpose: a skipped check would let a broken deploy through.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const COMPOSE_FILE = 'docker-compose.yml';
const INSTALL_HINT =
  'docker-compose is not installed. Install it with `apt-get install -y --no-install-recommends docker-compose` ' +
  '(CI installs it); this test validates docker-compose.yml and must not be skipped.';

function compose(...args: string[]) {
  // compose's fallbacks, not this machine's settings
  const env = { ...process.env };
  for (const name of ['INTERNAL_TOKEN', 'POSTGRES_PASSWORD', 'APP_URL', 'LOG_LEVEL', 'GATEWAY_PORT', 'GATEWAY_BIND']) delete env[name];
  const result = spawnSync('docker-compose', ['-f', COMPOSE_FILE, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env,
  });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(INSTALL_HINT);
  if (result.error) throw result.error;
  return result;
}

/** Backend services present in the repository: services/<name>/src/server.ts. */
function backendServices(): string[] {
  const dir = join(root, 'services');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'src', 'server.ts')))
    .map((entry) => entry.name)
    .sort();
}

// --- a reader for the normalized YAML that `docker-compose config` prints ------------------
// (block style, two-space indentation, `key: value` / `key:` + nested block / `- item`).
// There is no YAML package in the project; this reads just that shape.

type Lines = string[];
const indentOf = (line: string) => line.length - line.trimStart().length;

/** The lines nested under `key:` at the outermost indentation of `lines` (null if absent). */
function child(lines: Lines, key: string): Lines | null {
  const meaningful = lines.filter((line) => line.trim() !== '');
  if (meaningful.length === 0) return null;
  const level = Math.min(...meaningful.map(indentOf));
  const start = meaningful.findIndex((line) => indentOf(line) === level && line.trim().startsWith(`${key}:`));
  if (start === -1) return null;
  const nested: Lines = [];
  for (const line of meaningful.slice(start + 1)) {
    // PyYAML writes a list at its key's indentation: `ports:` then `- ...` on the same level.
    const listItem = indentOf(line) === level && line.trim().startsWith('- ');
    if (indentOf(line) < level || (indentOf(line) === level && !listItem)) break;
    nested.push(line);
  }
  return nested;
}

/** Keys at the outermost indentation of `lines`. */
function keys(lines: Lines | null): string[] {
  if (!lines || lines.length === 0) return [];
  const level = Math.min(...lines.map(indentOf));
  return lines
    .filter((line) => indentOf(line) === level && /^[^\s-][^:]*:/.test(line.trim()))
    .map((line) => line.trim().slice(0, line.trim().indexOf(':')));
}

/** The scalar value of `key: value` at the outermost indentation of `lines`. */
function scalar(lines: Lines | null, key: string): string | null {
  if (!lines || lines.length === 0) return null;
  const level = Math.min(...lines.map(indentOf));
  const line = lines.find((l) => indentOf(l) === level && l.trim().startsWith(`${key}: `));
  if (!line) return null;
  return line
    .trim()
    .slice(key.length + 2)
    .replace(/^'(.*)'$/, '$1')
    .replace(/^"(.*)"$/, '$1');
}

/** Follows a path of keys, e.g. at(service, 'build', 'args'). */
function at(lines: Lines | null, ...path: string[]): Lines | null {
  let current = lines;
  for (const key of path) {
    if (!current) return null;
    current = child(current, key);
  }
  return current;
}

describe('docker-compose.yml', () => {
  let services: Record<string, Lines> = {};
  let names: string[] = [];

  beforeAll(() => {
    const printed = compose('config');
    expect(printed.status, printed.stderr).toBe(0);
    const top = printed.stdout.split('\n');
    const block = child(top, 'services') ?? [];
    services = Object.fromEntries(keys(block).map((name) => [name, child(block, name) ?? []]));
    const listed = compose('config', '--services');
    expect(listed.status, listed.stderr).toBe(0);
    names = listed.stdout
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean)
      .sort();
  });

  it('is accepted by `docker-compose config -q`', () => {
    const result = compose('config', '-q');
    expect(result.status, `docker-compose config -q failed:\n${result.stderr}`).toBe(0);
  });

  it('has a service for every services/<name>/src/server.ts, plus gateway, postgres and nats', () => {
    const expected = [...backendServices(), 'gateway', 'postgres', 'nats'];
    const missing = expected.filter((name) => !names.includes(name));
    expect(missing, `docker-compose.yml lacks: ${missing.join(', ')}`).toEqual([]);
    // The parsed config agrees with --services (guards the reader above).
    expect(Object.keys(services).sort()).toEqual(names);
  });

  it('builds each backend service from the shared Dockerfile with its own name', () => {
    for (const name of backendServices()) {
      const service = services[name] ?? [];
      expect(scalar(at(service, 'build'), 'dockerfile'), name).toBe('infra/docker/Dockerfile');
      expect(scalar(at(service, 'build'), 'target'), name).toBe('service');
      expect(scalar(at(service, 'build', 'args'), 'SERVICE'), name).toBe(name);
      expect(scalar(at(service, 'environment'), 'PORT'), `${name} PORT`).toMatch(/^\d+$/);
      expect(scalar(at(service, 'environment'), 'HOST'), `${name} HOST`).toBe('0.0.0.0');
      expect(at(service, 'healthcheck'), `${name} healthcheck`).not.toBeNull();
    }
    const gateway = services.gateway ?? [];
    expect(scalar(at(gateway, 'build'), 'dockerfile')).toBe('infra/docker/Dockerfile');
    expect(scalar(at(gateway, 'build'), 'target')).toBe('gateway');
    expect(at(gateway, 'healthcheck'), 'gateway healthcheck').not.toBeNull();
  });

  it('points every app at Postgres and NATS and starts it only once they are healthy', () => {
    for (const name of [...backendServices(), 'gateway']) {
      const service = services[name] ?? [];
      const env = at(service, 'environment');
      expect(scalar(env, 'DATABASE_URL'), `${name} DATABASE_URL`).toMatch(/^postgres(ql)?:\/\/[^/]*@postgres:5432\/?$/);
      expect(scalar(env, 'NATS_URL'), `${name} NATS_URL`).toBe('nats://nats:4222');
      expect(scalar(env, 'INTERNAL_TOKEN')?.length ?? 0, `${name} INTERNAL_TOKEN`).toBeGreaterThanOrEqual(24);
      // every service's address: each consumer reads its producer's history from it
      for (const other of backendServices()) {
        const variable = `${other.toUpperCase().replaceAll('-', '_')}_URL`;
        const port = scalar(at(services[other] ?? [], 'environment'), 'PORT');
        expect(scalar(env, variable), `${name} ${variable}`).toBe(`http://${other}:${port}`);
      }
      for (const dependency of ['postgres', 'nats']) {
        expect(scalar(at(service, 'depends_on', dependency), 'condition'), `${name} -> ${dependency}`).toBe('service_healthy');
      }
    }
  });

  it('falls back to public secrets that the apps take on localhost only', () => {
    for (const name of [...backendServices(), 'gateway']) {
      const env = at(services[name] ?? [], 'environment');
      const settings = Object.fromEntries(
        ['NODE_ENV', 'APP_URL', 'DATABASE_URL', 'INTERNAL_TOKEN'].map((key) => [key, scalar(env, key) ?? undefined]),
      );
      expect(settings.NODE_ENV, name).toBe('production');
      expect(loadConfig(BaseConfig, settings).APP_URL, name).toBe('http://localhost:3000');
      const published = () => loadConfig(BaseConfig, { ...settings, APP_URL: 'https://sleep.example.org' });
      expect(published, name).toThrow(/INTERNAL_TOKEN: docker-compose.yml's local default is public/);
      expect(published, name).toThrow(/DATABASE_URL: docker-compose.yml's local POSTGRES_PASSWORD is public/);
    }
  });

  it('gives the gateway the URL of every backend service and waits for them', () => {
    const gateway = services.gateway ?? [];
    const env = at(gateway, 'environment');
    expect(scalar(env, 'WEB_DIST'), 'gateway WEB_DIST').toBeTruthy();
    for (const name of backendServices()) {
      const variable = `${name.toUpperCase().replaceAll('-', '_')}_URL`;
      const port = scalar(at(services[name] ?? [], 'environment'), 'PORT');
      expect(scalar(env, variable), `gateway ${variable}`).toBe(`http://${name}:${port}`);
      expect(scalar(at(gateway, 'depends_on', name), 'condition'), `gateway -> ${name}`).toBe('service_healthy');
    }
  });

  it('publishes a port only for the gateway, and keeps data in named volumes', () => {
    const publishing = Object.entries(services)
      .filter(([, service]) => child(service, 'ports') !== null)
      .map(([name]) => name);
    expect(publishing).toEqual(['gateway']);
    // on this machine only unless asked (a TLS proxy in front; published as it is, plain http
    // and X-Forwarded-For of anyone's choosing would reach it past the proxy)
    expect((child(services.gateway ?? [], 'ports') ?? []).join('\n')).toMatch(/127\.0\.0\.1/);
    const volumes = (service: string) => (at(services[service] ?? [], 'volumes') ?? []).map((l) => l.trim());
    expect(volumes('postgres').some((v) => v.startsWith('- postgres-data:/var/lib/postgresql/data'))).toBe(true);
    expect(volumes('nats').some((v) => /^- nats-data:\/data/.test(v))).toBe(true);
  });

  it("rotates every container's log (Docker keeps it whole by default: the health checks alone fill a disk)", () => {
    const rotation = Object.fromEntries(
      Object.entries(services).map(([name, service]) => {
        const logging = at(service, 'logging');
        const options = at(service, 'logging', 'options');
        return [name, `${scalar(logging, 'driver')} ${scalar(options, 'max-size')} ${scalar(options, 'max-file')}`];
      }),
    );
    expect(rotation).toEqual(Object.fromEntries(names.map((name) => [name, 'json-file 20m 5'])));
  });
});
