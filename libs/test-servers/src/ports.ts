import { createServer, connect } from 'node:net';

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
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
