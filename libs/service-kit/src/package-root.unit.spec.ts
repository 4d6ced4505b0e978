import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './package-root.ts';

describe('packageRoot', () => {
  it('is the nearest folder above the module with a package.json, however deep the module', () => {
    const serviceKit = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
    expect(packageRoot(import.meta.url)).toBe(serviceKit);
    expect(packageRoot(new URL('./a/b/c/module.js', import.meta.url).href)).toBe(serviceKit);
  });

  it('says so when there is none', () => {
    expect(() => packageRoot('file:///module.js')).toThrow('no package.json above /module.js');
  });
});
