import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { holdFreePort, listening, waitFor } from './ports.ts';

const run = promisify(execFile);
/** PG_BIN_DIR, else the newest Debian PostgreSQL install (/usr/lib/postgresql/<version>/bin). */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL server binaries under ${root}: apt-get install postgresql, or set PG_BIN_DIR`);
  return join(root, newest, 'bin');
}

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>` (trust authentication). */
  url: string;
  port: number;
  /** `fast`: clean shutdown; `immediate`: like a crash (no checkpoint). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops it and deletes its data directory. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the test's own (initdb into a temporary directory, its own port),
 * run as the `postgres` system user when the test runs as root (PostgreSQL refuses root).
 */
export async function startPostgresServer(options: { maxConnections?: number } = {}): Promise<PostgresServer> {
  const { port, release } = await holdFreePort();
  try {
    return await postgresServerOn(port, release, options);
  } catch (err) {
    release();
    throw err;
  }
}

async function postgresServerOn(port: number, release: () => void, options: { maxConnections?: number }): Promise<PostgresServer> {
  const bin = binDir();
  const dir = await mkdtemp(join(tmpdir(), 'sw-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  const pg = async (command: string, args: string[]) => {
    const file = join(bin, command);
    if (asRoot) await run('runuser', ['-u', 'postgres', '--', file, ...args]);
    else await run(file, args);
  };
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(dir, 0o700);
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const serverOptions = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=${options.maxConnections ?? 100}`;
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-o', serverOptions, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    await waitFor(() => listening(port), `PostgreSQL did not listen on ${port}`);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await pg('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']).catch(() => undefined);
    await waitFor(async () => !(await listening(port)), `PostgreSQL still listens on ${port}`);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}`,
    port,
    start,
    stop,
    async restart(mode) {
      await stop(mode);
      await start();
    },
    async destroy() {
      try {
        await stop('immediate');
        await rm(dir, { recursive: true, force: true });
      } finally {
        release();
      }
    },
  };
}
