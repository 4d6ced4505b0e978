import { describe, expect, it } from 'vitest';
import { isCompleteEntry, JOURNAL_ENTRY_EMPTY_MESSAGE, JournalEntryRequest } from './journal.ts';

const issues = (input: unknown) => {
  const result = JournalEntryRequest.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('JournalEntryRequest', () => {
  it('accepts one reflection; the others default to empty strings; text is trimmed', () => {
    expect(JournalEntryRequest.parse({ gratitude: '  My sister called.  ' })).toEqual({
      affirmation: '',
      gratitude: 'My sister called.',
      forgiveness: '',
    });
  });

  it('drops a userId or date sent by the client (the server sets them)', () => {
    const parsed = JournalEntryRequest.parse({ affirmation: 'I am enough.', userId: 'someone-else', date: '1999-01-01' });
    expect(parsed).toEqual({ affirmation: 'I am enough.', gratitude: '', forgiveness: '' });
  });

  it.each([
    [{}, ''],
    [{ affirmation: '', gratitude: '', forgiveness: '' }, ''],
    [{ affirmation: '   ', gratitude: '\n', forgiveness: '\t ' }, ''],
    // nothing to see: shows as an empty entry
    [{ affirmation: '\u200b', gratitude: '\u2800' }, ''],
  ])('refuses an entry without any reflection: %j', (input, path) => {
    expect(issues(input)).toEqual([{ path, message: JOURNAL_ENTRY_EMPTY_MESSAGE }]);
  });

  it.each([
    ['affirmation', "Today's Affirmation must be at most 2,000 characters"],
    ['gratitude', 'Gratitude must be at most 2,000 characters'],
    ['forgiveness', 'Forgiveness must be at most 2,000 characters'],
  ])('allows 2,000 characters of %s and refuses 2,001, naming the field', (field, message) => {
    expect(issues({ [field]: 'a'.repeat(2000) })).toEqual([]);
    // surrounding whitespace does not count
    expect(issues({ [field]: ` ${'a'.repeat(2000)}\n` })).toEqual([]);
    expect(issues({ [field]: 'a'.repeat(2001) })).toEqual([{ path: field, message }]);
  });

  it('refuses a reflection that is not text, naming the field', () => {
    expect(issues({ affirmation: 'fine', gratitude: 42 })).toEqual([{ path: 'gratitude', message: 'Gratitude must be text' }]);
  });
});

describe('isCompleteEntry', () => {
  it.each([
    [{ affirmation: 'a', gratitude: 'b', forgiveness: 'c' }, true],
    [{ affirmation: 'a', gratitude: 'b', forgiveness: '' }, false],
    [{ affirmation: 'a', gratitude: ' ', forgiveness: 'c' }, false],
    [{ affirmation: '', gratitude: '', forgiveness: '' }, false],
  ])('%j complete: %s', (entry, complete) => {
    expect(isCompleteEntry(entry)).toBe(complete);
  });
});
