import { describe, expect, it } from 'vitest';
import { buildPrefixTsQuery } from './search.ts';

describe('buildPrefixTsQuery', () => {
  it.each([
    ['linen', "'linen':*"],
    ['  Linen  ', "'Linen':*"], // PostgreSQL folds the case, as it did the articles' words
    ['hot fla', "'hot':* & 'fla':*"],
    ['Linen, sleep!', "'Linen':* & 'sleep':*"],
    ['night-sweats', "'night':* & 'sweats':*"],
    ['sleep sleep SLEEP', "'sleep':*"],
    ['HRV 2024', "'HRV':* & '2024':*"],
    ['Ménopause', "'Ménopause':*"],
    ['नींद और गर्मी', "'नींद':* & 'और':* & 'गर्मी':*"], // the vowel signs are combining marks, inside the word
    ['İstanbul', "'İstanbul':*"],
    // a clitic after an apostrophe is no word of its own (as a prefix it matched everything)
    ["Linen's", "'Linen':*"],
    ['linen’s pyjamas', "'linen':* & 'pyjamas':*"],
    ["don't we'll", "'don':* & 'we':*"],
    ["O'Brien", "'O':* & 'Brien':*"],
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
