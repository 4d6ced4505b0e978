import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { processRunning } from '@sleepweave/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { supervise } from './supervisor.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

let running: ReturnType<typeof supervise> | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

const lines = (out: PassThrough) => {
  const seen: string[] = [];
  out.on('data', (chunk: Buffer) => seen.push(...chunk.toString().split('\n').filter(Boolean)));
  return seen;
};
const nodeScript = (script: string) => ({ command: process.execPath, args: ['-e', script] });

/**
 * npm start itself in `dir`: the project's own start script, its build replaced by `build`
 * and `supervisorScript` in run-local's place, for npm to run (npm → sh → node).
 */
function asNpmStart(dir: string, supervisorScript: string, build = 'true') {
  writeFileSync(join(dir, 'supervisor.mjs'), supervisorScript);
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const script = start.replace('npm run build', build).replace('infra/run-local.mjs', 'supervisor.mjs');
  expect(script).not.toBe(start);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npm-start-in-small', private: true, scripts: { start: script } }));
}

/** Processes whose command line names `text` (Linux: /proc). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

/**
 * npm start in small: a process of its own (and a process group, as a terminal gives it)
 * supervising one app that takes `shutdownMs` to stop (service-kit's onShutdownSignal, through
 * tsx) and writes "stopped" to a file when done; signals handled as run-local's.
 */
async function supervisedApp(shutdownMs: number, { npmStart = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sw-supervisor-'));
  const marker = join(dir, 'stopped');
  const app = `import { writeFileSync } from 'node:fs';
    import { setTimeout as sleep } from 'node:timers/promises';
    import { createLogger, onShutdownSignal } from '@sleepweave/service-kit';
    onShutdownSignal(async () => { await sleep(${shutdownMs}); writeFileSync(${JSON.stringify(marker)}, 'stopped'); }, createLogger('app', 'info', 'json'));
    console.log('app up ' + process.pid);
    setInterval(() => {}, 1000);`;
  const supervisorScript = `import { stopOnSignals, supervise } from ${JSON.stringify(new URL('./supervisor.mjs', import.meta.url).href)};
    stopOnSignals(supervise([{ name: 'app', command: process.execPath, args: ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(app)}] }], { color: false, cwd: ${JSON.stringify(root)} }));`;
  // npm start itself: the project's own start script, its build left out and this
  // supervisor in run-local's place, run by npm (npm → sh → node)
  if (npmStart) asNpmStart(dir, supervisorScript);
  const supervisor = npmStart
    ? spawn('npm', ['start', '--silent'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'], detached: true })
    : spawn(process.execPath, ['--input-type=module', '-e', supervisorScript], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
        detached: true,
      });
  const exited = new Promise<number | null>((resolve) => supervisor.once('exit', (code) => resolve(code)));
  const lines: string[] = [];
  const appPid = await new Promise<number>((resolve, reject) => {
    createInterface({ input: supervisor.stdout }).on('line', (line) => {
      lines.push(line);
      const up = /app up (\d+)$/.exec(line);
      if (up) resolve(Number(up[1]));
    });
    supervisor.once('exit', () => reject(new Error('the supervisor exited')));
  });
  return {
    supervisor,
    appPid,
    exited,
    /** What the supervisor printed (the app's lines under its name). */
    lines,
    /** What the app's shutdown wrote, if it finished. */
    stopped: () => existsSync(marker) && readFileSync(marker, 'utf8'),
    cleanUp() {
      for (const pid of [-supervisor.pid!, appPid]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('the supervisor of npm start', () => {
  it('stays up, restarting, when every process dies at once (NATS not up yet), and stops on SIGTERM', async () => {
    const script = `import { stopOnSignals, supervise } from ${JSON.stringify(new URL('./supervisor.mjs', import.meta.url).href)};
      stopOnSignals(supervise([
        { name: 'a', command: process.execPath, args: ['-e', 'process.exit(1)'] },
        { name: 'b', command: process.execPath, args: ['-e', 'process.exit(1)'] },
      ], { color: false, firstDelayMs: 100 }));`;
    const supervisor = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => supervisor.once('exit', (code) => resolve(code)));
    const seen: string[] = [];
    createInterface({ input: supervisor.stdout }).on('line', (line) => seen.push(line));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // still there, and restarting both (0.1, 0.2, 0.4 s ...)
      expect(supervisor.exitCode).toBeNull();
      expect(seen.filter((line) => line.startsWith('[a]') && line.includes('restarting')).length).toBeGreaterThanOrEqual(3);
      supervisor.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      supervisor.kill('SIGKILL');
    }
  });

  it('does not restart a process that refused its configuration (exit 78), and says so', async () => {
    const out = new PassThrough();
    const seen = lines(out);
    const refused: string[] = [];
    running = supervise(
      [
        { name: 'bad', ...nodeScript("console.error('Invalid configuration: PORT'); process.exit(78)") },
        { name: 'good', ...nodeScript("console.log('good up'); setInterval(() => {}, 1000)") },
      ],
      { out, color: false, firstDelayMs: 50, onRefused: (name) => refused.push(name) },
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(refused).toEqual(['bad']);
    expect(running.restarts.get('bad')).toBe(0);
    expect(seen.some((line) => line.includes('bad refused its configuration (above): not restarted'))).toBe(true);
  });

  it('an app refused its configuration exits 78 with the setting named, no stack trace', async () => {
    const script = `import { BaseConfig, configOrExit, loadConfig } from '@sleepweave/service-kit';
      configOrExit(() => loadConfig(BaseConfig, { NODE_ENV: 'production' }));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(78);
    expect(stderr).toContain('INTERNAL_TOKEN: set a secret of your own in production');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('restarts a process that dies, with growing delays, and says so; the others keep running', async () => {
    const out = new PassThrough();
    const seen = lines(out);
    running = supervise(
      [
        { name: 'crashy', ...nodeScript("console.log('up'); setTimeout(() => process.exit(3), 50)") },
        { name: 'steady', ...nodeScript("console.log('steady up'); setInterval(() => {}, 1000)") },
      ],
      { out, firstDelayMs: 100, maxDelayMs: 400, color: false },
    );
    await expect.poll(() => running!.restarts.get('crashy'), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const notices = seen.filter((line) => line.includes('*** crashy exited with code 3'));
    expect(notices[0]).toMatch(/restarting in 0\.1 s/);
    expect(notices[1]).toMatch(/restarting in 0\.2 s/);
    expect(notices[2]).toMatch(/restarting in 0\.4 s/);
    expect(seen.filter((line) => line.startsWith('[crashy]') && line.endsWith(' up')).length).toBeGreaterThanOrEqual(3);
    expect(running.restarts.get('steady')).toBe(0);
    expect(seen).toContain('[steady] steady up');
  });

  it('restarts a process killed with SIGKILL', async () => {
    const out = new PassThrough();
    const seen = lines(out);
    running = supervise([{ name: 'victim', ...nodeScript("console.log('victim up'); setInterval(() => {}, 1000)") }], {
      out,
      firstDelayMs: 100,
      color: false,
    });
    await expect.poll(() => seen.filter((l) => l.endsWith('victim up')).length, { timeout: 10_000 }).toBe(1);
    process.kill(running.pid('victim')!, 'SIGKILL');
    await expect.poll(() => seen.filter((l) => l.endsWith('victim up')).length, { timeout: 10_000 }).toBe(2);
    expect(seen.some((l) => l.includes('*** victim was killed (SIGKILL)'))).toBe(true);
  });

  it('shows each line as `format` rewrites it', async () => {
    const out = new PassThrough();
    const seen = lines(out);
    running = supervise(
      [{ name: 'app', ...nodeScript('console.log(\'{"msg":"up"}\'); console.error(\'plain\'); setInterval(() => {}, 1000)') }],
      {
        out,
        color: false,
        format: (line) => (line.startsWith('{') ? `formatted ${JSON.parse(line).msg}\n  second line` : line),
      },
    );
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(3);
    expect(seen.sort()).toEqual(['[app]   second line', '[app] formatted up', '[app] plain']);
  });

  it('takes its apps with it when it is killed outright (kill -9): each stops as on SIGTERM', async () => {
    const system = await supervisedApp(0);
    try {
      system.supervisor.kill('SIGKILL');
      await expect.poll(() => processRunning(system.appPid), { timeout: 10_000 }).toBe(false);
      // it stopped through its own shutdown, not killed
      expect(system.stopped()).toBe('stopped');
    } finally {
      system.cleanUp();
    }
  });

  it.each([
    ['a SIGTERM to npm alone', 'SIGTERM', 500],
    ['npm killed outright (kill -9 of npm alone)', 'SIGKILL', 0],
  ] as const)('npm start stops its apps, each through its own shutdown, on %s', async (_how, signal, shutdownMs) => {
    const system = await supervisedApp(shutdownMs, { npmStart: true });
    try {
      system.supervisor.kill(signal);
      await expect.poll(() => system.stopped(), { timeout: 10_000 }).toBe('stopped');
      await expect.poll(() => processRunning(system.appPid), { timeout: 5_000 }).toBe(false);
    } finally {
      system.cleanUp();
    }
  });

  it('npm start leaves nothing running when npm is killed outright during the build, before the supervisor began', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sw-supervisor-'));
    const supervisorScript = `import { stopOnSignals, supervise } from ${JSON.stringify(new URL('./supervisor.mjs', import.meta.url).href)};
      stopOnSignals(supervise([{ name: 'app', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', ${JSON.stringify(dir)}] }], { color: false }));`;
    asNpmStart(dir, supervisorScript, 'sleep 1.5');
    const npm = spawn('npm', ['start', '--silent'], { cwd: dir, stdio: 'ignore', detached: true });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      npm.kill('SIGKILL');
      // the build ends, the supervisor begins, finds npm gone and stops what it started
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await expect.poll(() => processesNaming(dir), { timeout: 10_000 }).toEqual([]);
    } finally {
      for (const pid of processesNaming(dir)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops each app once, through its own shutdown, on Ctrl-C (SIGINT to the terminal's process group)", async () => {
    const system = await supervisedApp(500);
    try {
      process.kill(-system.supervisor.pid!, 'SIGINT');
      expect(await system.exited).toBe(0);
      // the app finished its shutdown: not cut short by a second signal from the supervisor
      expect(system.stopped()).toBe('stopped');
    } finally {
      system.cleanUp();
    }
  });

  it('kills the apps at once on a second Ctrl-C', async () => {
    const system = await supervisedApp(30_000);
    try {
      process.kill(-system.supervisor.pid!, 'SIGINT');
      // the app is in its shutdown
      await expect.poll(() => system.lines.some((line) => line.includes('shutting down')), { timeout: 5_000 }).toBe(true);
      process.kill(-system.supervisor.pid!, 'SIGINT');
      expect(await system.exited).toBe(1);
      await expect.poll(() => processRunning(system.appPid), { timeout: 2_000 }).toBe(false);
      expect(system.stopped()).toBe(false);
    } finally {
      system.cleanUp();
    }
  });
});
