/**
 * What each app loads at start, as npm start and the images compile it (build-apps.mjs): the
 * libraries only some requests need load with the first of them (a dynamic import), so an
 * idle process does not hold them (docs/performance.md, "Idle memory"); zod comes without
 * the 64 locales no app uses (patches/zod+4.6.7.patch), and pdfkit without fontkit until a
 * PDF uses a font from a file (patches/pdfkit+0.20.2.patch): the research service keeps
 * what its nightly run loaded.
 */
import { spawnSync } from 'node:child_process';
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
  'services/research-export': [
    'archiver',
    'pdfkit',
    'simple-statistics',
    '@stdlib/stats-base-dists-t-quantile',
    '@stdlib/math-base-special-betainc',
  ],
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

/**
 * The files whose path includes `part` that a Node process has loaded, as ES modules and as
 * CommonJS, once `body` has run: an ES module's code (its imports dynamic: a static one would
 * load before the hook that watches is in place), or CommonJS's (`kind: 'require'`).
 */
function filesLoaded(part: string, body: string, kind: 'import' | 'require' = 'import'): string[] {
  const printCommonJs = `for (const file of Object.keys(require.cache)) if (file.includes(${JSON.stringify(part)})) console.log(file);`;
  // A module hook names every ES module as it loads; CommonJS's cache lists the rest.
  const hook = `export async function load(url, context, next) { if (url.includes(${JSON.stringify(part)})) console.log(url); return next(url, context); }`;
  const program =
    kind === 'import'
      ? `import { createRequire, register } from 'node:module';
         register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
         const require = createRequire(process.cwd() + '/');
         ${body}
         ${printCommonJs}`
      : `${body}\n${printCommonJs}`;
  const run = spawnSync(process.execPath, kind === 'import' ? ['--input-type=module', '-e', program] : ['-e', program], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter(Boolean);
}

describe('zod', () => {
  it.each([
    ['import', `const { z } = await import('zod'); z.string().parse('loaded');`],
    ['require', `const { z } = require('zod'); z.string().parse('loaded');`],
  ] as const)('loads without its locales (%s)', (kind, body) => {
    const files = filesLoaded('/node_modules/zod/', body, kind);
    expect(files.length).toBeGreaterThan(10); // the reading is right: zod's own files are seen
    // English, its default messages, is the one locale it needs
    expect(files.filter((file) => file.includes('/locales/'))).toEqual([expect.stringMatching(/\/locales\/en\.c?js$/)]);
  });
});

describe('pdfkit (patches/pdfkit+0.20.2.patch)', () => {
  /** A PDF of one line in `font`, made as the research report and the personal PDFs make theirs. */
  const pdfIn = (font: string) => `
    const { default: PDFDocument } = await import('pdfkit');
    const doc = new PDFDocument();
    const ended = new Promise((resolve) => doc.on('end', resolve));
    doc.on('data', () => {});
    doc.font(${font}).text('Linen vs polyester');
    doc.end();
    await ended;`;

  it('makes a PDF in its standard fonts without loading fontkit (the research report)', () => {
    expect(filesLoaded('/node_modules/pdfkit/', pdfIn("'Helvetica'")).length).toBeGreaterThan(0); // the reading is right
    expect(filesLoaded('/node_modules/fontkit/', pdfIn("'Helvetica'"))).toEqual([]);
  });

  it('loads fontkit with the first font from a file (the personal PDFs)', () => {
    const dejaVu = "require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf', { paths: [process.cwd() + '/libs/documents'] })";
    expect(filesLoaded('/node_modules/fontkit/', pdfIn(dejaVu)).length).toBeGreaterThan(0);
  });
});
