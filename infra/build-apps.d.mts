/** Types of build-apps.mjs (plain JavaScript, so that `npm start` needs no TypeScript loader for it). */

/**
 * Compiles every service and the gateway to `<app>/dist/server.js` where not up to date (its
 * build stamp); `base` and `only` choose other apps (folders of `base`). Resolves with how many
 * it compiled and how long it took (ms).
 */
export function buildApps(options?: { base?: string; only?: string[] }): Promise<{ compiled: number; ms: number }>;

import type { Metafile } from 'esbuild';

/**
 * Compiles entry points (name → source file) into `outdir` as the apps are compiled (one ES
 * module each, our libraries bundled, npm packages imported); with `metafile`, resolves with
 * esbuild's account of what each output imports.
 */
export function compile(entries: Record<string, string>, outdir: string, options?: { metafile?: boolean }): Promise<Metafile | null>;
