/**
 * A bench killed outright (kill -9, the OOM killer) leaves nothing running: its floor's bare
 * server ends with it, as its apps do (bench/support.ts).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a floor server started by a bench', () => {
  it('ends when the bench is killed outright', async () => {
    // a bench in miniature: it starts a floor that would run for ever, says its pid, and waits
    const bench = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { startFloorScript } from './bench/support.ts';
         const floor = startFloorScript('setInterval(() => {}, 1000);');
         console.log(floor.pid);
         setInterval(() => {}, 1000);`,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = await createInterface({ input: bench.stdout! })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value as string]);
    const floorPid = Number(line);
    expect(floorPid).toBeGreaterThan(0);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(running(floorPid)).toBe(true);
      bench.kill('SIGKILL');
      const deadline = Date.now() + 5_000;
      while (running(floorPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(running(floorPid)).toBe(false);
    } finally {
      bench.kill('SIGKILL');
      if (running(floorPid)) process.kill(floorPid, 'SIGKILL');
    }
  }, 30_000);
});
