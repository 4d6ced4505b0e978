/**
 * What each app loads at start, as npm start and the images compile it (build-apps.mjs): the
 * libraries only some requests need load with the first of them (a dynamic import), so an
 * idle process does not hold them (docs/performance.md, "Idle memory").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from './build-apps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Packages an app must not load at start: they load with the requests (or the run) that use them. */
const LOADED_AT_FIRST_USE: Record<string, string[]> = {
  // a password reset's mail; the list of common passwords, with the first new password
  'services/identity': ['nodemailer', '@zxcvbn-ts/language-common'],
  // her PDF
  'services/journal': ['pdfkit'],
  // her workbook and PDF with its charts
  'services/study': ['exceljs', 'pdfkit', 'chart.js', '@napi-rs/canvas'],
  // the research run's zip and report; her own export
  'services/research-export': ['archiver', 'pdfkit', 'jstat', 'simple-statistics', '@stdlib/stats-base-dists-t-quantile'],
};

/** The npm packages an output imports when it loads, following the chunks it imports statically. */
function loadedAtStart(metafile: Metafile, entry: string): { atStart: Set<string>; later: Set<string> } {
  const atStart = new Set<string>();
  const later = new Set<string>();
  const seen = new Set<string>();
  const visit = (output: string, dynamic: boolean) => {
    if (!dynamic && seen.has(output)) return;
    seen.add(output);
    for (const imported of metafile.outputs[output]?.imports ?? []) {
      const isDynamic = dynamic || imported.kind === 'dynamic-import';
      if (imported.external) {
        if (!imported.path.startsWith('node:')) (isDynamic ? later : atStart).add(imported.path);
      } else if (!isDynamic || !seen.has(imported.path)) {
        visit(imported.path, isDynamic);
      }
    }
  };
  visit(entry, false);
  return { atStart, later };
}

const outdirs: string[] = [];
afterAll(async () => {
  for (const dir of outdirs) await rm(dir, { recursive: true, force: true });
});

describe('what an app loads at start', () => {
  it.each(Object.entries(LOADED_AT_FIRST_USE))('%s loads its heavy libraries at first use only', async (app, lazy) => {
    const outdir = await mkdtemp(join(tmpdir(), 'sw-start-imports-'));
    outdirs.push(outdir);
    const metafile = (await compile({ server: join(root, app, 'src/server.ts') }, outdir, { metafile: true }))!;
    const entry = Object.keys(metafile.outputs).find((output) => output.endsWith('/server.js'))!;
    const { atStart, later } = loadedAtStart(metafile, entry);
    expect(atStart).toContain('fastify'); // the reading is right: what every app loads at start
    for (const name of lazy) {
      expect(atStart, `${app} loads ${name} at start`).not.toContain(name);
      expect(later, `${app} no longer uses ${name}: update this list`).toContain(name);
    }
  });
});
