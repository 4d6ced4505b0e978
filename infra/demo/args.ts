import { parseArgs } from 'node:util';

/** The command line of `npm run demo` (infra/demo/cli.ts). */

export const USAGE = 'Usage: npm run demo -- [--participants N] [--seed S] [--reset]';
export const DEFAULT_PARTICIPANTS = 40;
export const DEFAULT_SEED = 'sleepweave';
const MAX_PARTICIPANTS = 5_000;
export interface DemoArgs {
  participants: number;
  seed: string;
  reset: boolean;
}

const parse = (argv: string[]) =>
  parseArgs({
    args: argv,
    options: {
      participants: { type: 'string' },
      seed: { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
    strict: true,
  });

/** The command line, or an Error with the message to print. */
export function parseDemoArgs(argv: string[]): DemoArgs {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw new Error(`${(err as Error).message}. ${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new Error(USAGE);
  if (positionals.length > 0) throw new Error(`Unexpected ${positionals.join(' ')}. ${USAGE}`);
  const raw = values.participants ?? String(DEFAULT_PARTICIPANTS);
  const participants = Number(raw);
  if (!/^\d+$/.test(raw) || participants < 1 || participants > MAX_PARTICIPANTS) {
    throw new Error(`--participants must be a whole number from 1 to ${MAX_PARTICIPANTS}, not "${raw}"`);
  }
  const seed = values.seed ?? DEFAULT_SEED;
  if (seed.trim() === '') throw new Error('--seed must not be empty');
  if (values.reset && (values.participants !== undefined || values.seed !== undefined)) {
    throw new Error('--reset removes every demo account; it takes no --participants or --seed');
  }
  return { participants, seed, reset: values.reset };
}
