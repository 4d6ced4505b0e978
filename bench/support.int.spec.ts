/**
 * A bench killed outright (kill -9, the OOM killer) leaves nothing running: its floor's bare
 * server and the programs it starts (Lighthouse's Chromium) end with it, as its apps do
 * (bench/support.ts).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { processRunning } from '@sleepweave/test-servers';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A bench in miniature: it runs `start` (with bench/support.ts's helpers in scope), which
 * must make a process that prints its own pid first and then runs for ever; then the bench
 * is killed with SIGKILL. Resolves with whether that process was still running 5 s later.
 */
async function outlivesKilledBench(start: string): Promise<boolean> {
  const bench = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { startEndingWithBench, startFloorScript } from './bench/support.ts';
       ${start};
       setInterval(() => {}, 1000);`,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const first = await createInterface({ input: bench.stdout! })[Symbol.asyncIterator]().next();
  const pid = Number(first.value);
  try {
    expect(pid).toBeGreaterThan(0);
    expect(processRunning(pid)).toBe(true);
    bench.kill('SIGKILL');
    const deadline = Date.now() + 5_000;
    while (processRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    return processRunning(pid);
  } finally {
    bench.kill('SIGKILL');
    if (processRunning(pid)) process.kill(pid, 'SIGKILL');
  }
}

const printsPidForEver = `console.log(process.pid); setInterval(() => {}, 1000);`;

describe('what a bench starts', () => {
  it('a floor server ends when the bench is killed outright', async () => {
    // the floor's own output is ignored: the bench prints the floor's pid
    expect(await outlivesKilledBench(`console.log(startFloorScript(${JSON.stringify(printsPidForEver)}).pid)`)).toBe(false);
  }, 30_000);

  it('a program it runs ends when the bench is killed outright', async () => {
    expect(
      await outlivesKilledBench(`startEndingWithBench(process.execPath, ['-e', ${JSON.stringify(printsPidForEver)}], 'inherit')`),
    ).toBe(false);
  }, 30_000);
});
