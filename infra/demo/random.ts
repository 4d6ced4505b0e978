import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/**
 * Seeded randomness for the demo cohort: xoroshiro128+ (pure-rand) seeded with the
 * 32-bit FNV-1a hash of `<seed>:<stream>`, so each participant (and the community) draws
 * from a stream of its own: participant 7 is the same person whatever the cohort's size.
 */

/** FNV-1a, 32 bits: a well-known string hash (not for security). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

export interface Random {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** Normal (Box-Muller). */
  normal(mean: number, sd: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Poisson (Knuth's multiplication method; fine for the small means used here). */
  poisson(mean: number): number;
}

export function createRandom(seed: string, stream: string): Random {
  const rng: RandomGenerator = xoroshiro128plus(fnv1a(`${seed}:${stream}`));
  const uniform = () => uniformFloat64(rng);
  return {
    uniform,
    int: (min, max) => uniformInt(rng, min, max),
    normal(mean, sd) {
      // 1 - u is in (0, 1]: the logarithm is finite.
      const u = 1 - uniform();
      const v = uniform();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    chance: (p) => uniform() < p,
    pick(items) {
      if (items.length === 0) throw new Error('pick from nothing');
      return items[uniformInt(rng, 0, items.length - 1)]!;
    },
    poisson(mean) {
      const limit = Math.exp(-mean);
      let k = 0;
      let product = uniform();
      while (product > limit) {
        k += 1;
        product *= uniform();
      }
      return k;
    },
  };
}
