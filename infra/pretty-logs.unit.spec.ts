import { describe, expect, it } from 'vitest';
import { prettyLogLines } from './pretty-logs.mjs';

describe('prettyLogLines (npm start)', () => {
  const format = prettyLogLines();

  it('makes a JSON log entry one readable line, as LOG_FORMAT=pretty does in an app', () => {
    const time = Date.UTC(2026, 10, 27, 9, 5, 7); // pino-pretty writes UTC times
    const entry = { level: 40, time, pid: 12, hostname: 'h', name: 'journal', msg: 'slow', ms: 812, req: { method: 'GET' } };
    expect(format(JSON.stringify(entry))).toBe('[09:05:07] WARN: slow {"ms":812,"req":{"method":"GET"}}');
  });

  it('leaves any other line as it is', () => {
    for (const line of ['compiled 7 apps to JavaScript in 0.5 s', '    at main (file:///app/dist/server.js:10:5)', '{not json', '']) {
      expect(format(line)).toBe(line);
    }
  });

  it('writes an error with its stack on the lines after (the supervisor names the app on each)', () => {
    const entry = { level: 50, time: 0, msg: 'failed', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.js:1:1)' } };
    const lines = format(JSON.stringify(entry)).split('\n');
    expect(lines[0]!.trimEnd()).toBe('[00:00:00] ERROR: failed');
    expect(lines.some((line) => line.includes('at x (y.js:1:1)'))).toBe(true);
  });
});
