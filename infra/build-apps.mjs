#!/usr/bin/env node
/**
 * Compiles every service and the gateway to JavaScript for `npm start` and the container
 * images: `<app>/src/server.ts` → `<app>/dist/server.js`, an ES module per app (plus a chunk
 * per module it imports on first use) with our workspace libraries (TypeScript sources) bundled in and every npm package left as an
 * import, resolved from node_modules at run time. Running the compiled file instead of
 * TypeScript through tsx saves each process the loader (about 27 MB and a transpile at
 * every start). dist/server.js sits as deep in its app as src/server.ts, so paths made
 * from import.meta.url (migrations, the web build) point at the same places.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { presentServices } from './services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const apps = [...presentServices().map(({ name }) => `services/${name}`), 'gateway'];

/**
 * Our workspace packages (@sleepweave/*) are bundled, but for those with a native addon, which
 * load it from their own folder; every other bare import stays an import.
 */
const NATIVE_WORKSPACE_PACKAGES = ['@sleepweave/malloc-trim'];
const externalPackages = {
  name: 'external-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      (args.path.startsWith('@sleepweave/') && !NATIVE_WORKSPACE_PACKAGES.includes(args.path)) || args.path.startsWith('node:')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/**
 * Compiles entry points (name → source file) into `outdir` as the apps are compiled: one ES
 * module each, our libraries bundled, npm packages imported, a chunk per module imported on
 * first use. A bench uses it to run code as the services run it; `metafile` asks esbuild for
 * what each output imports (a test checks what an app loads at start).
 */
export async function compile(entries, outdir, { metafile = false } = {}) {
  // outdir is not emptied first: a running system (npm start beside a test run that compiles
  // again) still imports its lazy chunks by their old names; chunk names carry a content
  // hash, so nothing it uses is overwritten.
  const result = await build({
    entryPoints: entries,
    outdir,
    bundle: true,
    // modules the code imports on first use (the export libraries) stay out of the start
    splitting: true,
    // chunks beside server.js: import.meta.url paths hold in them too
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // keeps class and function names in stack traces and logs
    keepNames: true,
    logLevel: 'warning',
    plugins: [externalPackages],
    metafile,
  });
  return result.metafile ?? null;
}

/**
 * An app's last compile, in `<app>/dist/build-stamp.json`: the digest of every file it read
 * (esbuild's list) and of the files that decide how those compile, and what it wrote. The
 * app is up to date while every one of those files reads the same and every output is there;
 * then `buildApps` does not compile it again (about a second of a start's two cores).
 */
const STAMP = 'build-stamp.json';

const digests = new Map();
/** A file's digest, read once a run (the apps share most of their files). */
function digest(file) {
  if (!digests.has(file)) digests.set(file, createHash('sha256').update(readFileSync(file)).digest('base64url'));
  return digests.get(file);
}

/**
 * Beside the sources: this script (esbuild's options), esbuild's version, the TypeScript
 * settings, and every workspace package's package.json (how `@sleepweave/*` imports resolve).
 */
function settingsFiles(base) {
  const workspaces = ['libs', 'services']
    .filter((folder) => existsSync(join(base, folder)))
    .flatMap((folder) => readdirSync(join(base, folder)).map((name) => `${folder}/${name}/package.json`));
  return ['infra/build-apps.mjs', 'node_modules/esbuild/package.json', 'tsconfig.json', 'gateway/package.json', ...workspaces].filter(
    (file) => existsSync(join(base, file)),
  );
}

function upToDate(base, app) {
  try {
    const stamp = JSON.parse(readFileSync(join(base, app, 'dist', STAMP), 'utf8'));
    return (
      Object.entries(stamp.inputs).every(([file, hash]) => existsSync(join(base, file)) && digest(join(base, file)) === hash) &&
      stamp.outputs.every((file) => existsSync(join(base, file)))
    );
  } catch {
    return false;
  }
}

/** Every source file an app may be compiled from (its own and the workspace libraries'), digested. */
function digestSources(base, app) {
  const libs = join(base, 'libs');
  const folders = [join(base, app, 'src'), ...(existsSync(libs) ? readdirSync(libs).map((name) => join(libs, name, 'src')) : [])];
  for (const folder of folders.filter((path) => existsSync(path))) {
    for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) digest(join(entry.parentPath, entry.name));
    }
  }
}

async function compileApp(base, app) {
  const outdir = join(base, app, 'dist');
  // digested before the compile: a file changed while it runs makes the next start compile again
  digestSources(base, app);
  const metafile = await compile({ server: join(base, app, 'src/server.ts') }, outdir, { metafile: true });
  // esbuild names files relative to the working directory; the stamp, relative to `base`
  const fromBase = (file) => relative(base, resolve(file));
  const read = [...Object.keys(metafile.inputs).map(fromBase), ...settingsFiles(base)];
  const stamp = {
    inputs: Object.fromEntries(read.map((file) => [file, digest(join(base, file))])),
    outputs: Object.keys(metafile.outputs).map(fromBase),
  };
  // written whole or not at all: a start beside a test run may compile the same app
  const path = join(outdir, STAMP);
  writeFileSync(`${path}.${process.pid}`, JSON.stringify(stamp));
  renameSync(`${path}.${process.pid}`, path);
}

/**
 * Compiles every app (`only`: folders of `base`; every app of this repository unless said)
 * that is not up to date (its build stamp); resolves with how many it compiled and how long
 * it took (ms).
 */
export async function buildApps({ base = root, only = apps } = {}) {
  const started = performance.now();
  digests.clear();
  const stale = only.filter((app) => !upToDate(base, app));
  await Promise.all(stale.map((app) => compileApp(base, app)));
  return { compiled: stale.length, ms: performance.now() - started };
}

// `node infra/build-apps.mjs`: compile and say so
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { compiled, ms } = await buildApps();
  console.log(
    compiled === 0
      ? `${apps.length} apps up to date (checked in ${(ms / 1000).toFixed(1)} s)`
      : `compiled ${compiled} of ${apps.length} apps to JavaScript in ${(ms / 1000).toFixed(1)} s`,
  );
}
