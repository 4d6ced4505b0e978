import { describe, expect, it } from 'vitest';
import { afterSignIn, signInReturn } from './sign-in-return';

describe('afterSignIn', () => {
  it('goes back to the page of the app she came from, with its query', () => {
    expect(afterSignIn(signInReturn({ pathname: '/sleep/log', search: '?date=2026-11-20' }))).toBe('/sleep/log?date=2026-11-20');
    expect(afterSignIn({ from: '/journal' })).toBe('/journal');
  });

  it('goes Home without one, or for anything that is not a page of this app', () => {
    for (const state of [
      null,
      undefined,
      {},
      { from: 42 },
      { from: 'https://evil.example/' },
      { from: '//evil.example' },
      { from: '/\\evil.example' },
      { from: 'journal' },
      { from: '/auth' },
      { from: '/auth?x=1' },
    ]) {
      expect(afterSignIn(state), JSON.stringify(state)).toBe('/dashboard');
    }
  });
});
