import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { holdFreePort, waitFor } from './ports.ts';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export interface NatsServer {
  url: string;
  port: number;
  /** Stops it (SIGTERM, or SIGKILL) and waits until the port is free. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again on the same port with the same JetStream storage. */
  start(): Promise<void>;
  restart(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Stops it, deletes its JetStream storage and starts it again: a server that lost its store. */
  restartEmpty(): Promise<void>;
  /**
   * Freezes it (SIGSTOP): its connections stay open and nothing is answered, as a server that
   * hangs or a network that drops packets; resolves once every thread of it has stopped.
   * `stop()` ends it from there.
   */
  freeze(): Promise<void>;
  /** Stops it and deletes its storage. */
  destroy(): Promise<void>;
}

/** Whether every thread of a process is stopped (state T in /proc; Linux), or gone. */
function stopped(pid: number): boolean {
  const read = (path: string): string | null => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null; // a thread that ended meanwhile
    }
  };
  const tasks = (() => {
    try {
      return readdirSync(`/proc/${pid}/task`);
    } catch {
      return [];
    }
  })();
  return tasks.every((task) => {
    const stat = read(`/proc/${pid}/task/${task}/stat`);
    if (stat === null) return true;
    const state = stat[stat.lastIndexOf(')') + 2]; // after the command's name, which may hold spaces
    return state === 'T' || state === 't' || state === 'Z' || state === 'X';
  });
}

/** The name the nats-server listening on `port` gives in its INFO line; null when none answers so. */
function serverName(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    const done = (name: string | null) => {
      socket.destroy();
      resolve(name);
    };
    socket.setTimeout(1_000, () => done(null));
    socket.once('error', () => done(null));
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('utf8');
      const end = data.indexOf('\r\n');
      if (end < 0) return;
      const line = data.slice(0, end);
      try {
        done(line.startsWith('INFO ') ? ((JSON.parse(line.slice(5)) as { server_name?: string }).server_name ?? null) : null);
      } catch {
        done(null);
      }
    });
  });
}

/** A nats-server with JetStream of the test's own (Debian's nats-server), on a free port. */
export async function startNatsServer(): Promise<NatsServer> {
  const { port, release } = await holdFreePort();
  try {
    return await natsServerOn(port, release);
  } catch (err) {
    release();
    throw err;
  }
}

async function natsServerOn(port: number, release: () => void): Promise<NatsServer> {
  const dir = await mkdtemp(join(tmpdir(), 'sw-nats-'));
  /** Its name, so that what answers on the port is known to be it (and not another test's server). */
  const name = `sw-test-${randomUUID()}`;
  let child: ChildProcess | null = null;

  const start = async () => {
    const started = spawn(NATS_SERVER, ['-n', name, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
    child = started;
    try {
      await waitFor(async () => {
        if (started.exitCode !== null) throw new Error(`nats-server exited (${started.exitCode}) before listening on ${port}`);
        const answering = await serverName(port);
        if (answering !== null && answering !== name) throw new Error(`another nats-server (${answering}) listens on ${port}`);
        return answering === name;
      }, `nats-server did not listen on ${port}`);
    } catch (err) {
      await stop('SIGKILL'); // not left behind to take the port later
      throw err;
    }
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    running.kill('SIGCONT'); // a frozen one takes its SIGTERM once running again
    await exited;
    await waitFor(async () => (await serverName(port)) !== name, `nats-server still listens on ${port}`);
  };
  try {
    await start();
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async freeze() {
      const frozen = child;
      if (!frozen?.pid) throw new Error('nats-server is not running');
      frozen.kill('SIGSTOP');
      // The signal stops its threads one by one: one still running answered what the test
      // sent next (a publish "landed" on a frozen server, under load).
      const pid = frozen.pid;
      await waitFor(async () => stopped(pid), `nats-server (pid ${pid}) did not stop`, 5_000);
    },
    async restart(signal) {
      await stop(signal);
      await start();
    },
    async restartEmpty() {
      await stop();
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir);
      await start();
    },
    async destroy() {
      try {
        await stop();
        await rm(dir, { recursive: true, force: true });
      } finally {
        release();
      }
    },
  };
}
