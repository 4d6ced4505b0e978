/**
 * The addon against glibc itself, in processes of their own: memory freed between buffers still
 * in use stays resident after free(), and trimMalloc gives it back. And wherever the C library
 * is glibc (this machine, CI, the container images) the addon was built at install.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { available, trimMalloc } from '@sleepweave/malloc-trim';

const MB = 1024 * 1024;

/**
 * 32 MB of 8 KB buffers (malloc's, below its mmap threshold), two of every three then freed:
 * holes between the buffers kept. Prints the process's RSS before and after (trimmed or not).
 */
const script = (trim: boolean) => `
  const { trimMalloc } = require('@sleepweave/malloc-trim');
  const rss = () => Number(/Rss:\\s+(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/smaps_rollup', 'utf8'))[1]) * 1024;
  let kept = [];
  for (let i = 0; i < 4096; i++) kept.push(Buffer.allocUnsafeSlow(8192).fill(1));
  kept = kept.filter((_, i) => i % 3 === 0);
  // The dead buffers' memory goes back to malloc some while after a collection (V8 frees it
  // from its own threads and tasks): collected, then waited for until the process's array
  // buffers hold only the kept ones.
  const held = kept.length * 8192 + 1024 * 1024;
  const deadline = Date.now() + 10_000;
  const settled = () => {
    gc();
    if (process.memoryUsage().arrayBuffers > held && Date.now() < deadline) return setTimeout(settled, 50);
    const before = rss();
    const trimmed = ${trim} ? trimMalloc() : false;
    console.log(JSON.stringify({ before, after: rss(), trimmed, kept: kept.length, arrayBuffers: process.memoryUsage().arrayBuffers }));
  };
  settled();
`;

type Printed = { before: number; after: number; trimmed: boolean; kept: number; arrayBuffers: number };

function run(trim: boolean): Promise<Printed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '-e', script(trim)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Printed) : reject(new Error(`exit ${code}`))));
  });
}

const glibc = Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);

describe('trimMalloc', () => {
  it.runIf(glibc)('is built at install where the C library is glibc', () => {
    expect(available).toBe(true);
    expect(typeof trimMalloc()).toBe('boolean');
  });

  it.runIf(glibc)('gives back the pages freed between buffers still in use, which free() leaves resident', async () => {
    const [left, trimmed] = await Promise.all([run(false), run(true)]);
    expect(left.kept).toBe(1366);
    for (const { arrayBuffers } of [left, trimmed]) expect(arrayBuffers, 'the dead buffers freed within 10 s').toBeLessThan(13 * MB);
    // ~21 MB freed between the kept buffers: still resident without the trim
    expect(left.after, JSON.stringify(left)).toBeGreaterThan(left.before - 2 * MB);
    expect(trimmed.trimmed).toBe(true);
    expect(trimmed.after, JSON.stringify(trimmed)).toBeLessThan(trimmed.before - 10 * MB);
  });
});
