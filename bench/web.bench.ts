/**
 * npm run bench (web): what a first visit downloads before the app can start: the entry
 * script and every module it preloads, raw and gzip-compressed as the gateway serves them
 * (goal: initial JS ≤ 150 KB gzip), and that no source map ships in the build. Reads the
 * build in WEB_DIST (default web/dist; `npm run build` first).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = process.env.WEB_DIST ?? fileURLToPath(new URL('../web/dist', import.meta.url));
if (!existsSync(join(dist, 'index.html'))) throw new Error(`no web build in ${dist}: run npm run build`);
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map((m) => m[1]!);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
let raw = 0;
let gzip = 0;
for (const src of scripts) {
  const file = readFileSync(join(dist, src));
  raw += file.length;
  gzip += gzipSync(file, { level: 9 }).length;
}
const maps = readdirSync(join(dist, 'assets')).filter((name) => name.endsWith('.map'));
console.log(
  `web: initial JS ${kb(gzip)} gzip (goal ≤ 150 KB), ${kb(raw)} raw, in ${scripts.length} files; source maps in the build: ${maps.length} (goal 0)`,
);
