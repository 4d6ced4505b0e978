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
}

export interface Supervisor {
  stop(): Promise<void>;
  /** How many times each command was restarted. */
  restarts: Map<string, number>;
  pid(name: string): number | undefined;
}

export function supervise(commands: SupervisedCommand[], options?: SupervisorOptions): Supervisor;
