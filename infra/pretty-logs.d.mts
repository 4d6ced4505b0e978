/** Types of pretty-logs.mjs (plain JavaScript, so that `npm start` needs no TypeScript loader for it). */

/** A formatter of output lines: a pino JSON log entry made one readable line, any other line kept. */
export function prettyLogLines(): (line: string) => string;
