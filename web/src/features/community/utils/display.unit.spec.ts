import { describe, expect, it } from 'vitest';
import { initialOf, messagePreview, senderName } from './display';
import { relativeTime } from './relative-time';

describe('relativeTime', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  it.each([
    [0, 'Just now'],
    [59_999, 'Just now'],
    [-30_000, 'Just now'],
    [60_000, '1m ago'],
    [59 * 60_000 + 59_999, '59m ago'],
    [60 * 60_000, '1h ago'],
    [1_439 * 60_000, '23h ago'],
    [1_440 * 60_000, '1d ago'],
    [10 * 86_400_000, '10d ago'],
  ])('%i ms ago is %s', (ms, text) => {
    expect(relativeTime(ago(ms), now)).toBe(text);
  });
});

describe('senderName', () => {
  it.each([
    // what community sends: the part of the e-mail before the @
    [{ firstName: 'Ada', email: 'ada', profileImageUrl: null }, 'Ada'],
    [{ firstName: '  ', email: 'quiet.reader', profileImageUrl: null }, 'quiet.reader'],
    [{ firstName: null, email: 'nina', profileImageUrl: null }, 'nina'],
    [{ firstName: null, email: ' ', profileImageUrl: null }, 'User'],
    [{ firstName: null, email: '', profileImageUrl: null }, 'User'],
    [{ firstName: null, email: null, profileImageUrl: null }, 'User'],
    // a whole address is cut the same way
    [{ firstName: null, email: 'nina@example.com', profileImageUrl: null }, 'nina'],
    [{ firstName: '', email: '@example.com', profileImageUrl: null }, 'User'],
    // a name of only invisible characters (taken before names had to show something)
    [{ firstName: '\u200b', email: 'quiet.reader', profileImageUrl: null }, 'quiet.reader'],
    [{ firstName: '\u0301', email: '\u200b', profileImageUrl: null }, 'User'],
  ])('%j is called %s', (sender, name) => {
    expect(senderName(sender)).toBe(name);
  });
});

describe('messagePreview', () => {
  it('keeps a short message whole', () => {
    expect(messagePreview('Linen is lovely.')).toBe('Linen is lovely.');
    expect(messagePreview('x'.repeat(100))).toBe('x'.repeat(100));
  });
  it('cuts after 100 characters and adds an ellipsis', () => {
    expect(messagePreview('y'.repeat(101))).toBe(`${'y'.repeat(100)}...`);
  });
  it('never splits an emoji', () => {
    expect(messagePreview('🌙'.repeat(120))).toBe(`${'🌙'.repeat(100)}...`);
  });
});

describe('initialOf', () => {
  it('is the first letter, upper case', () => {
    expect(initialOf('maya')).toBe('M');
    expect(initialOf('')).toBe('U');
  });
});
