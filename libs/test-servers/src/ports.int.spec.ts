/**
 * Ports held for test servers: skipped by freePort() in every process while the holder
 * lives, also while its server is stopped for an outage.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdFreePort, isPortHeld } from './ports.ts';

describe('holdFreePort', () => {
  it('holds a port until it is released', async () => {
    const { port, release } = await holdFreePort();
    expect(isPortHeld(port)).toBe(true);
    release();
    expect(isPortHeld(port)).toBe(false);
  });

  it('holds it for other processes while its holder lives, and not after', async () => {
    // another process holds a port and waits
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${join(import.meta.dirname, 'ports.ts')}').then(async (m) => { const { port } = await m.holdFreePort(); console.log(port); setInterval(() => {}, 1000); })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const port = await new Promise<number>((resolve, reject) => {
      holder.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      holder.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
    });
    try {
      expect(isPortHeld(port)).toBe(true);
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
    }
    // its file stays behind; the process it names is gone
    expect(isPortHeld(port)).toBe(false);
  });
});
