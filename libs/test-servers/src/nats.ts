import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { holdFreePort, listening, waitFor } from './ports.ts';

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

/** Whether every thread of a process is stopped (state T in /proc; Linux). */
function stopped(pid: number): boolean {
  return readdirSync(`/proc/${pid}/task`).every((task) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    const state = stat[stat.lastIndexOf(')') + 2]; // after the command's name, which may hold spaces
    return state === 'T' || state === 't';
  });
}

/** A nats-server with JetStream of the test's own (Debian's nats-server), on a free port. */
export async function startNatsServer(): Promise<NatsServer> {
  const { port, release } = await holdFreePort();
  const dir = await mkdtemp(join(tmpdir(), 'sw-nats-'));
  let child: ChildProcess | null = null;

  const start = async () => {
    const started = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
    child = started;
    // its own, not something else listening there
    await waitFor(async () => {
      if (started.exitCode !== null) throw new Error(`nats-server exited (${started.exitCode}) before listening on ${port}`);
      return listening(port);
    }, `nats-server did not listen on ${port}`);
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    running.kill('SIGCONT'); // a frozen one takes its SIGTERM once running again
    await exited;
    await waitFor(async () => !(await listening(port)), `nats-server still listens on ${port}`);
  };
  await start();
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
      await stop();
      await rm(dir, { recursive: true, force: true });
      release();
    },
  };
}
