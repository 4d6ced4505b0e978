/**
 * buildApps compiles an app only when it is not up to date: a file it was compiled from, or a
 * setting that decides how (a workspace package.json), reads differently, or an output is
 * gone. On an app of its own in a temporary folder (esbuild for real).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApps } from './build-apps.mjs';

const base = mkdtempSync(join(tmpdir(), 'sw-build-apps-'));
const write = (file: string, text: string) => {
  mkdirSync(join(base, file, '..'), { recursive: true });
  writeFileSync(join(base, file), text);
};
write('services/notes/package.json', '{ "name": "notes", "type": "module" }');
write('services/notes/src/server.ts', "import { greeting } from './greeting.ts';\nconsole.log(greeting);\n");
write('services/notes/src/greeting.ts', "export const greeting: string = 'hello';\n");
const build = () => buildApps({ base, only: ['services/notes'] });

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('buildApps', () => {
  it('compiles an app the first time, then not while nothing it depends on changed', async () => {
    expect((await build()).compiled).toBe(1);
    expect((await build()).compiled).toBe(0);
    // the same text written again (a checkout, a touch): still up to date
    write('services/notes/src/greeting.ts', "export const greeting: string = 'hello';\n");
    expect((await build()).compiled).toBe(0);
  });

  it('compiles it again when a file it imports changes', async () => {
    write('services/notes/src/greeting.ts', "export const greeting: string = 'hello again';\n");
    expect((await build()).compiled).toBe(1);
    expect((await build()).compiled).toBe(0);
  });

  it('compiles it again when an output is gone', async () => {
    rmSync(join(base, 'services/notes/dist/server.js'));
    expect((await build()).compiled).toBe(1);
  });

  it('compiles it again when a workspace package.json changes (how its imports resolve)', async () => {
    write('services/notes/package.json', '{ "name": "notes", "type": "module", "version": "2.0.0" }');
    expect((await build()).compiled).toBe(1);
    expect((await build()).compiled).toBe(0);
  });

  it('compiles it again when its stamp cannot be read', async () => {
    write('services/notes/dist/build-stamp.json', '{ not json');
    expect((await build()).compiled).toBe(1);
  });
});
