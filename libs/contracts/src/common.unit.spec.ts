import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groupThousands, roundDecimal, Uuid } from './common.ts';

describe('Uuid', () => {
  it('takes an id in any case, as the same id in lower case', () => {
    expect(Uuid.parse('0E8D7C6B-5A49-4382-A1B0-C9D8E7F6A5D1')).toBe('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5d1');
    expect(Uuid.safeParse('0e8d7c6b-5a49-4382-a1b0').success).toBe(false);
  });
});

describe('groupThousands', () => {
  it("writes whole numbers as toLocaleString('en-US') does", () => {
    const numbers = [0, 7, 42, 999, 1_000, 4_000, 12_345, 100_000, 999_999, 1_000_000, 1_234_567_890, -1, -4_000, -1_234_567];
    for (let n = 1; n < 1e15; n = n * 3 + 1) numbers.push(n);
    for (const n of numbers) expect(groupThousands(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('roundDecimal', () => {
  it('rounds the mean of the decimals she typed as they read (a mean of 43.95 is 44.0, not 43.9)', () => {
    const hrv = [45.6, 39.4, 44.3, 41.9, 46.2, 44.4, 39.8, 47.1, 46.2, 37.8, 43.3, 48.2, 46.8, 44.3]; // a demo participant's washout
    const mean = hrv.reduce((sum, v) => sum + v, 0) / hrv.length;
    expect(mean.toFixed(1)).toBe('43.9'); // the float's own rounding: the error it mends
    expect(roundDecimal(mean, 1)).toBe(44);
    expect(roundDecimal(mean, 1).toFixed(1)).toBe('44.0');
  });

  it('rounds halves away from zero, at any number of decimals', () => {
    const cases: [number, number, number][] = [
      [0.15, 1, 0.2],
      [1.005, 2, 1.01],
      [2.5, 0, 3],
      [-2.5, 0, -3],
      [-0.15, 1, -0.2],
      [43.49999999999999, 0, 44],
      [43.44, 1, 43.4],
      [123456.785, 2, 123456.79],
      [7, 1, 7],
      [1e-7, 1, 0],
      [1e21, 1, 1e21],
    ];
    for (const [value, digits, expected] of cases) expect(roundDecimal(value, digits), `${value} to ${digits}`).toBe(expected);
    expect(roundDecimal(Number.NaN, 1)).toBeNaN();
  });
});

describe('loading the contracts', () => {
  it('uses no Intl (its first use maps ICU data into every process that loads them)', () => {
    const index = fileURLToPath(new URL('./index.ts', import.meta.url));
    const script = `
      const used = [];
      for (const name of Object.getOwnPropertyNames(Intl)) {
        const original = Intl[name];
        if (typeof original !== 'function') continue;
        Intl[name] = new Proxy(original, {
          construct: (target, args) => (used.push('Intl.' + name), Reflect.construct(target, args)),
          apply: (target, self, args) => (used.push('Intl.' + name), Reflect.apply(target, self, args)),
        });
      }
      for (const [owner, methods] of [
        [Number.prototype, ['toLocaleString']],
        [BigInt.prototype, ['toLocaleString']],
        [Date.prototype, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']],
        [Array.prototype, ['toLocaleString']],
        [String.prototype, ['localeCompare', 'toLocaleUpperCase', 'toLocaleLowerCase', 'normalize']],
      ]) {
        for (const method of methods) {
          const original = owner[method];
          owner[method] = function (...args) { used.push(method); return original.apply(this, args); };
        }
      }
      await import(${JSON.stringify(index)});
      console.log(JSON.stringify(used));`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([]);
  });
});
