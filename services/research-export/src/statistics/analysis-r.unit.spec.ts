import { describe, expect, it } from 'vitest';
import { analysisR, rString } from './analysis-r.ts';

describe('analysisR', () => {
  const script = analysisR({ metrics: [{ key: 'total_sleep', label: 'Total sleep – “ring”', unit: 'minutes' }], minNights: 10 });

  it('writes the inclusion rule and the metrics into the script', () => {
    expect(script).toContain('min_nights <- 10');
    expect(script).toContain('key = c("total_sleep")');
    expect(script).toContain('ncp_limit <- 1000');
  });

  it('is ASCII, so R reads it alike in every locale', () => {
    expect(script).toMatch(/^[\x20-\x7e\n]*$/);
    expect(script).toContain('label = c("Total sleep \\u2013 \\u201cring\\u201d")');
  });

  it('uses no package', () => {
    expect(script).not.toMatch(/\b(library|require|requireNamespace)\s*\(|::/);
  });
});

describe('rString', () => {
  it('escapes quotes, backslashes, control and non-ASCII characters as R reads them', () => {
    expect(rString('a "b" \\ c\n')).toBe('"a \\"b\\" \\\\ c\\n"');
    expect(rString('10–20 µ')).toBe('"10\\u201320 \\u00b5"');
    expect(rString('sleep 😴')).toBe('"sleep \\U{1f634}"');
  });
});
