import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports held by the test servers of processes on this machine, each for as long as its
 * process lives (a file named by the port, holding the pid). A server stopped for a test (a
 * restart, an outage) leaves its port free meanwhile: another test's freePort() could be
 * given it, and the stopped server's clients would then reach that test's server, or the
 * restarted one could not listen.
 */
const HELD = join(tmpdir(), 'sleepweave-test-ports');

/** Whether a live process holds `port` for a test server (holdFreePort). */
export function isPortHeld(port: number): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(HELD, String(port)), 'utf8'));
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A port nobody listens on right now, nor holds for a test server (holdFreePort). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unusedPort();
    if (!isPortHeld(port)) return port;
  }
}

/**
 * A free port held for a server of this process until `release()` or this process ends:
 * freePort() in any process skips it, also while the server is stopped.
 */
export async function holdFreePort(): Promise<{ port: number; release(): void }> {
  mkdirSync(HELD, { recursive: true });
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await freePort();
    const file = join(HELD, String(port));
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
    } catch {
      // another process took it meanwhile, or one that ended left it (not taken over: no
      // unlinking of a file that may have just become another's)
      continue;
    }
    return {
      port,
      release: () => {
        try {
          unlinkSync(file);
        } catch {
          // gone already
        }
      },
    };
  }
  throw new Error('no free port could be held');
}

/** Whether something accepts connections on the port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The first of `count` consecutive ports nobody listens on right now (from the ephemeral range's lower half). */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 10_000);
    const taken = await Promise.all(Array.from({ length: count }, (_, i) => listening(first + i)));
    if (!taken.some(Boolean)) return first;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}
