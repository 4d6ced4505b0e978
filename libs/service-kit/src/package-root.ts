import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the package a module belongs to: the nearest one above it with a
 * package.json. Paths to a service's own files (images, its package.json) are made from
 * here rather than from `../..` of a module, so they hold both in the TypeScript sources
 * and in the compiled bundle (`<app>/dist/server.js`, infra/build-apps.mjs).
 */
export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return dir;
}
