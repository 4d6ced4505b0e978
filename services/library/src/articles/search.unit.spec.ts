import { describe, expect, it } from 'vitest';
import { buildPrefixTsQuery } from './search.ts';

describe('buildPrefixTsQuery', () => {
  it.each([
    ['linen', "'linen':*"],
    ['  Linen  ', "'linen':*"],
    ['hot fla', "'hot':* & 'fla':*"],
    ['Linen, sleep!', "'linen':* & 'sleep':*"],
    ['night-sweats', "'night':* & 'sweats':*"],
    ['sleep sleep SLEEP', "'sleep':*"],
    ['HRV 2024', "'hrv':* & '2024':*"],
    ['Ménopause', "'ménopause':*"],
  ])('%j -> %s', (input, expected) => {
    expect(buildPrefixTsQuery(input)).toBe(expected);
  });

  it.each(['', '   ', '!!!', "'", ':*', '&|!()<->', '"\\'])('treats %j as no search', (input) => {
    expect(buildPrefixTsQuery(input)).toBeNull();
  });

  it('lets no tsquery syntax through', () => {
    const query = buildPrefixTsQuery("linen' & !cotton | (wool):* <-> silk\\")!;
    expect(query).toBe("'linen':* & 'cotton':* & 'wool':* & 'silk':*");
  });

  it('keeps at most eight words of at most 40 letters', () => {
    const query = buildPrefixTsQuery(`${'a'.repeat(60)} b c d e f g h i j`)!;
    expect(query.split(' & ')).toHaveLength(8);
    expect(query.startsWith(`'${'a'.repeat(40)}':*`)).toBe(true);
  });
});
