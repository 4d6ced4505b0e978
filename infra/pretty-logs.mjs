/**
 * Readable log lines for `npm start`: the apps write pino's JSON lines and the supervisor turns
 * each into one readable line here, as LOG_FORMAT=pretty would in the app (the same pino-pretty
 * options as libs/service-kit/src/logger.ts). In one process for all of them: pretty-printing in
 * each app runs pino-pretty in a worker thread of its own, a second JavaScript engine that held
 * about 10 MB in every app (docs/performance.md, "Idle memory").
 */
import { createRequire } from 'node:module';

// pino-pretty is the service kit's dependency: resolved from there, wherever npm put it.
const require = createRequire(new URL('../libs/service-kit/package.json', import.meta.url));

/** `line` readable when it is a JSON log entry; any other line (a crash's stack trace) as it is. */
export function prettyLogLines() {
  const { prettyFactory } = require('pino-pretty');
  const pretty = prettyFactory({ ignore: 'pid,hostname,name', translateTime: 'HH:MM:ss', singleLine: true, colorize: false });
  return (line) => (line.startsWith('{') ? pretty(line).replace(/\n$/, '') : line);
}
