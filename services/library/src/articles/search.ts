/** Words longer than this are cut (no word in the library is longer; keeps queries small). */
const MAX_WORD_LENGTH = 40;
/** Only the first words of a long search count. */
const MAX_WORDS = 8;

/**
 * A PostgreSQL tsquery text that matches every word of `input` as a prefix, so a search
 * works as she types: `"Linen, sle"` -> `'linen':* & 'sle':*`.
 *
 * Safe by construction: a word is only letters and digits (any script), so no tsquery
 * operator, quote or backslash can get in; the result is still passed to to_tsquery as a
 * bound parameter, never concatenated into SQL. Returns null when there is no word at all
 * (empty, or punctuation only): that is "no search".
 */
export function buildPrefixTsQuery(input: string): string | null {
  const words =
    input
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words.map((word) => word.slice(0, MAX_WORD_LENGTH)))].slice(0, MAX_WORDS);
  if (unique.length === 0) return null;
  return unique.map((word) => `'${word}':*`).join(' & ');
}
