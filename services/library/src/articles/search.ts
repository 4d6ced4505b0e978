/** Words longer than this are cut (no word in the library is longer; keeps queries small). */
const MAX_WORD_LENGTH = 40;
/** Only the first words of a long search count. */
const MAX_WORDS = 8;

/**
 * The words of one written with apostrophes: the part before the first, and the parts after
 * it of three letters or more ("O'Brien": O, Brien). The short ones are the clitics of
 * "Linen's", "don't", "we'll": as prefixes ('s':*) they matched nearly every article and
 * ranked those with a title in S above the linen article she asked for.
 */
const wordsOf = (word: string): string[] => {
  const [first, ...rest] = word.split(/['’ʼ]/);
  return [first!, ...rest.filter((part) => [...part].length >= 3)];
};

/**
 * A PostgreSQL tsquery text that matches every word of `input` as a prefix, so a search
 * works as she types: `"Linen, sle"` -> `'linen':* & 'sle':*`.
 *
 * Safe by construction: a word is only letters, marks and digits (any script), so no tsquery
 * operator, quote or backslash can get in; the result is still passed to to_tsquery as a
 * bound parameter, never concatenated into SQL. Returns null when there is no word at all
 * (empty, or punctuation only): that is "no search".
 */
export function buildPrefixTsQuery(input: string): string | null {
  // A word: a letter or digit, then letters, their combining marks (नींद: the vowel signs are
  // marks) and digits. Letter case is PostgreSQL's to fold, as it folded the articles' words
  // (JavaScript lowercases İ to i and a combining dot, which PostgreSQL does not).
  const words = (input.normalize('NFKC').match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’ʼ][\p{L}\p{M}\p{N}]+)*/gu) ?? []).flatMap(wordsOf);
  const byCase = new Map<string, string>();
  for (const word of words.map((w) => w.slice(0, MAX_WORD_LENGTH)))
    if (!byCase.has(word.toLowerCase())) byCase.set(word.toLowerCase(), word);
  const unique = [...byCase.values()].slice(0, MAX_WORDS);
  if (unique.length === 0) return null;
  return unique.map((word) => `'${word}':*`).join(' & ');
}
