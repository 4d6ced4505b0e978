/**
 * A small process supervisor for `npm start`: runs each command as a child process with
 * its output prefixed by its name, restarts one that dies (a crash, kill -9) with backoff
 * while the others keep serving, and stops them all on Ctrl-C / SIGTERM.
 *
 * Each child runs in a process group of its own, so that Ctrl-C (SIGINT to the terminal's
 * foreground group) reaches only this process, which stops each app with one SIGTERM: an app
 * that also had the terminal's SIGINT took this SIGTERM for a second Ctrl-C and exited at
 * once, its shutdown cut short. Each child also gets a pipe as its standard input, never
 * written to, and STOP_ON_STDIN_END=1 (libs/service-kit's onShutdownSignal): if this process
 * is killed outright (kill -9, the OOM killer) or its terminal closes, the pipes close with
 * it and the apps stop instead of running on as orphans that hold the ports the next
 * `npm start` needs.
 *
 * Why not concurrently's restart option: its exponential delay has no ceiling and never
 * resets, so a process that crashed ten times waits 17 minutes, however long it then ran.
 * Here the delay doubles from 0.5 s up to 30 s, and goes back to 0.5 s once a process has
 * stayed up for a minute.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Set for each child (libs/service-kit's STOP_ON_STDIN_END), and read by stopOnSignals. */
const STOP_ON_STDIN_END = 'STOP_ON_STDIN_END';

const COLORS = [36, 35, 33, 32, 34, 31, 96, 95];

/** An app refused its configuration (sysexits' EX_CONFIG; libs/service-kit CONFIG_ERROR_EXIT_CODE). */
export const REFUSED_EXIT_CODE = 78;

/**
 * @param {{ name: string, command: string, args: string[], env?: Record<string, string> }[]} commands
 * @param {{ cwd?: string, firstDelayMs?: number, maxDelayMs?: number, stableAfterMs?: number, out?: NodeJS.WritableStream, color?: boolean, format?: (line: string) => string, onRefused?: (name: string) => void }} [options]
 *   `format` rewrites each line a process prints before it is shown (npm start: pretty-logs.mjs);
 *   each line of what it returns is shown under the process's name. A process that exits with
 *   REFUSED_EXIT_CODE (libs/service-kit's CONFIG_ERROR_EXIT_CODE: its settings are wrong) is
 *   not restarted, since it would meet the same settings; `onRefused` is told (npm start then
 *   stops the others and ends with that code).
 * @returns {{ stop(): Promise<void>, restarts: Map<string, number>, pid(name: string): number | undefined }}
 */
export function supervise(commands, options = {}) {
  const { cwd = process.cwd(), firstDelayMs = 500, maxDelayMs = 30_000, stableAfterMs = 60_000 } = options;
  const out = options.out ?? process.stdout;
  const color = options.color ?? Boolean(out.isTTY);
  const format = options.format ?? ((line) => line);
  const width = Math.max(...commands.map((c) => c.name.length));
  const restarts = new Map(commands.map((c) => [c.name, 0]));
  const children = new Map();
  /**
   * Restarts waiting for their time. Referenced: when every process has died at once (NATS
   * not up yet at `npm start`), they are all this process holds, and with them unref'd it
   * exited, code 0, under "restarting in 8.0 s".
   */
  const timers = new Set();
  let stopping = false;

  const label = (name, index) => {
    const text = `[${name}]`.padEnd(width + 2);
    return color ? `\x1b[${COLORS[index % COLORS.length]}m${text}\x1b[0m` : text;
  };
  const say = (name, index, line) => out.write(`${label(name, index)} ${line}\n`);

  function start(spec, index, delayMs) {
    const startedAt = Date.now();
    const child = spawn(spec.command, spec.args, {
      cwd,
      env: { ...process.env, ...spec.env, [STOP_ON_STDIN_END]: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    children.set(spec.name, child);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        for (const shown of format(line).split('\n')) say(spec.name, index, shown);
      });
    }
    child.on('exit', (code, signal) => {
      children.delete(spec.name);
      if (stopping) return;
      if (code === REFUSED_EXIT_CODE) {
        say(spec.name, index, `*** ${spec.name} refused its configuration (above): not restarted`);
        options.onRefused?.(spec.name);
        return;
      }
      const ranMs = Date.now() - startedAt;
      const delay = ranMs >= stableAfterMs ? firstDelayMs : delayMs;
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      say(spec.name, index, `*** ${spec.name} ${how} after ${(ranMs / 1000).toFixed(1)} s; restarting in ${(delay / 1000).toFixed(1)} s`);
      restarts.set(spec.name, (restarts.get(spec.name) ?? 0) + 1);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) start(spec, index, Math.min(delay * 2, maxDelayMs));
      }, delay);
      timers.add(timer);
    });
  }

  commands.forEach((spec, index) => start(spec, index, firstDelayMs));

  return {
    restarts,
    pid: (name) => children.get(name)?.pid,
    kill() {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const child of children.values()) child.kill('SIGKILL');
    },
    async stop() {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const exits = [...children.values()].map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
            child.once('exit', resolve);
            child.kill('SIGTERM');
            // a child that does not stop within 15 s is killed
            const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
            timer.unref?.();
          }),
      );
      await Promise.all(exits);
    },
  };
}

/** How often `npm start` looks whether npm, its parent, is still there. */
const PARENT_CHECK_MS = 1_000;
/** npm start's pid, set by its script in package.json ($PPID of the script's shell). */
const NPM_PID = 'SLEEPWEAVE_NPM_PID';

/** Whether a process of that pid runs (signal 0 checks without sending anything). */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * How `npm start` ends (infra/run-local.mjs): Ctrl-C or SIGTERM stops the supervised
 * processes, each through its own shutdown, then this process; a second Ctrl-C kills them at
 * once (SIGKILL) and exits. With STOP_ON_STDIN_END=1 (a bench holds this process's standard
 * input), the end of that input stops them as the first Ctrl-C does.
 *
 * @param {{ stop(): Promise<void>, kill(): void }} supervisor
 */
export function stopOnSignals(supervisor) {
  let stopping = false;
  const stop = () => {
    if (stopping) {
      supervisor.kill();
      process.exit(1);
    }
    stopping = true;
    supervisor.stop().then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
  // Run by npm start (its script names npm's pid: SLEEPWEAVE_NPM_PID), and npm gone (killed
  // outright, or ended on a signal without waiting for this process, even during the build
  // before this process began): nothing holds the system any more, and it would run on as an
  // orphan holding the ports. Stopped as on Ctrl-C.
  const npmPid = Number(process.env[NPM_PID]);
  if (Number.isInteger(npmPid) && npmPid > 0) {
    const npmGone = () => {
      if (!stopping && !processAlive(npmPid)) stop();
    };
    npmGone();
    setInterval(npmGone, PARENT_CHECK_MS).unref();
  }
  if (process.env[STOP_ON_STDIN_END] === '1') {
    process.stdin.on('data', () => {});
    process.stdin.once('end', () => {
      if (!stopping) stop();
    });
  }
}
