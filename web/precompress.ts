import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const TEXT = /\.(js|css|html|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* textFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(path);
    else if (TEXT.test(entry.name)) yield path;
  }
}

/**
 * A brotli (.br) and a gzip (.gz) copy of every text file of the build over 1 KB, made once
 * at build time at the highest levels; the gateway serves them to browsers that accept them
 * (@fastify/static preCompressed) instead of compressing on every request.
 */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'sleepweave-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      let count = 0;
      for await (const path of textFiles(outDir)) {
        if ((await stat(path)).size < MIN_BYTES) continue;
        const content = await readFile(path);
        await writeFile(`${path}.br`, await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        await writeFile(`${path}.gz`, await gz(content, { level: 9 }));
        count += 1;
      }
      config.logger.info(`precompressed ${count} files (brotli and gzip)`);
    },
  };
}
