import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groupThousands, Uuid } from './common.ts';

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
