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

/** Compiles every app; resolves with how long it took (ms). */
export async function buildApps() {
  const started = performance.now();
  await Promise.all(apps.map((app) => compile({ server: `${root}/${app}/src/server.ts` }, `${root}/${app}/dist`)));
  return performance.now() - started;
}

// `node infra/build-apps.mjs`: compile and say so
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ms = await buildApps();
  console.log(`compiled ${apps.length} apps to JavaScript in ${(ms / 1000).toFixed(1)} s`);
}
