/** The test's own nats-server: it is the one answering on its port, and a freeze is whole. */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServer } from './nats.ts';
import { listening, waitFor } from './ports.ts';

let nats: NatsServer;
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  await nats?.destroy();
});

describe('startNatsServer', () => {
  it('will not start again where another nats-server has taken its port meanwhile', async () => {
    await nats.stop();
    const other = spawn(
      process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server',
      ['-n', 'another', '-a', '127.0.0.1', '-p', String(nats.port)],
      {
        stdio: 'ignore',
      },
    );
    try {
      await waitFor(() => listening(nats.port), 'the other nats-server did not listen');
      await expect(nats.start()).rejects.toThrow(/another nats-server \(another\) listens|exited/);
    } finally {
      const exited = new Promise((resolve) => other.once('exit', resolve));
      other.kill('SIGKILL');
      await exited;
    }
    await nats.start();
  });

  it('freezes every thread of it before saying so', async () => {
    await nats.freeze();
    try {
      const pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
      const ours = pids.filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`127.0.0.1\0-p\0${nats.port}\0`);
        } catch {
          return false;
        }
      });
      expect(ours).toHaveLength(1);
      const states = readdirSync(`/proc/${ours[0]}/task`).map((task) => {
        const stat = readFileSync(`/proc/${ours[0]}/task/${task}/stat`, 'utf8');
        return stat[stat.lastIndexOf(')') + 2];
      });
      expect(states.every((state) => state === 'T' || state === 't')).toBe(true);
    } finally {
      await nats.restart('SIGKILL');
    }
  });
});
