/**
 * Stack traces of the compiled apps name the TypeScript sources, and each source map is read
 * when a stack trace first passes through its file, not as its module loads (the apps run
 * with APP_NODE_ARGS, which preload libs/service-kit/source-maps.mjs instead of Node's
 * `--enable-source-maps`; docs/performance.md, "Idle memory").
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './build-apps.mjs';
import { APP_NODE_ARGS } from './services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// the throw is on line 4 of the TypeScript, on another line of the compiled JavaScript
const SOURCE = `type Reason = { why: string };

export function fail(reason: Reason): never {
  throw new Error(reason.why);
}
`;

let dir = '';
let compiled = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sw-source-maps-'));
  await writeFile(join(dir, 'entry.ts'), SOURCE);
  await compile({ entry: join(dir, 'entry.ts') }, join(dir, 'dist'));
  compiled = join(dir, 'dist/entry.js');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The stack of fail()'s error in a process started with `args` (from the repository, as npm start runs the apps), after `before` ran in it. */
function stackOfFail(args: string[], before = ''): string {
  const script = `
    import { renameSync } from 'node:fs';
    const { fail } = await import(${JSON.stringify(pathToFileURL(compiled).href)});
    ${before}
    try { fail({ why: 'on purpose' }); } catch (error) { console.log(error.stack); }`;
  const run = spawnSync(process.execPath, [...args, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout;
}

describe('stack traces of a compiled app', () => {
  it('name the TypeScript file and line', () => {
    const stack = stackOfFail(APP_NODE_ARGS);
    expect(stack).toContain('Error: on purpose');
    expect(stack).toMatch(/entry\.ts:4:\d+/);
    expect(stack).not.toMatch(/entry\.js:/);
  });

  it('load the library that maps them with the first stack trace, not at start', () => {
    const script = `
      import { createRequire } from 'node:module';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/source-map-support/'));
      const before = loaded();
      new Error('made, its stack not read').message;
      const unread = loaded();
      void new Error('read').stack;
      console.log(JSON.stringify([before, unread, loaded()]));`;
    const run = spawnSync(process.execPath, [...APP_NODE_ARGS, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([false, false, true]);
  });

  it('read the source map when a stack trace needs it, not when the module loads', async () => {
    // the map is missing while the module loads, back before the error: a map read at load
    // (Node's --enable-source-maps) finds nothing, a map read at the stack trace finds it
    const map = `${compiled}.map`;
    await rename(map, `${map}.later`);
    const putBack = `renameSync(${JSON.stringify(`${map}.later`)}, ${JSON.stringify(map)});`;
    try {
      expect(stackOfFail(APP_NODE_ARGS, putBack)).toMatch(/entry\.ts:4:\d+/);
    } finally {
      await rename(`${map}.later`, map).catch(() => undefined);
    }
    await rename(map, `${map}.later`);
    try {
      expect(stackOfFail(['--enable-source-maps'], putBack)).toMatch(/entry\.js:\d+/);
    } finally {
      await rename(`${map}.later`, map).catch(() => undefined);
    }
  });
});
