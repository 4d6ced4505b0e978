/** Types of supervisor.mjs (plain JavaScript, so that `npm start` needs no TypeScript loader for it). */
export interface SupervisedCommand {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface SupervisorOptions {
  cwd?: string;
  firstDelayMs?: number;
  maxDelayMs?: number;
  stableAfterMs?: number;
  out?: NodeJS.WritableStream & { isTTY?: boolean };
  color?: boolean;
  /** Rewrites each line a process prints before it is shown (npm start: pretty-logs.mjs). */
  format?: (line: string) => string;
  /** A process exited with REFUSED_EXIT_CODE (its settings are wrong): it is not restarted. */
  onRefused?: (name: string) => void;
}

/** An app refused its configuration (sysexits' EX_CONFIG; libs/service-kit CONFIG_ERROR_EXIT_CODE). */
export const REFUSED_EXIT_CODE: 78;

export interface Supervisor {
  /** SIGTERM to each process, and waits for them to exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
  /** SIGKILL to each process, at once. */
  kill(): void;
  /** How many times each command was restarted. */
  restarts: Map<string, number>;
  pid(name: string): number | undefined;
}

export function supervise(commands: SupervisedCommand[], options?: SupervisorOptions): Supervisor;

/** Ctrl-C / SIGTERM stop the processes gracefully, then exit; a second one kills them (see supervisor.mjs). */
export function stopOnSignals(supervisor: Pick<Supervisor, 'stop' | 'kill'>): void;
