// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { afterSignIn, leftOnPurpose, rememberLeftOnPurpose, rememberSignedIn, signInReturn } from './sign-in-return';

const maria = { id: '5b0f6f3e-8a0c-4c1e-9d7a-2f4b8c6d1e01' };
const ines = { id: '9c2d7a10-4b3e-4f5a-8e6d-1a2b3c4d5e6f' };

afterEach(() => window.sessionStorage.clear());

describe('afterSignIn', () => {
  it('goes back to the page of the app she came from, with its query', () => {
    rememberSignedIn(maria.id);
    expect(afterSignIn(signInReturn({ pathname: '/sleep/log', search: '?date=2026-11-20' }), maria)).toBe('/sleep/log?date=2026-11-20');
    expect(afterSignIn({ from: '/journal', userId: maria.id }, maria)).toBe('/journal');
  });

  it('to a page a link opened while nobody had signed in in the tab, whoever signs in', () => {
    const state = signInReturn({ pathname: '/library', search: '?search=hot' });
    expect(state).toEqual({ from: '/library?search=hot', userId: null });
    expect(afterSignIn(state, ines)).toBe('/library?search=hot');
  });

  it('goes Home for someone else than who was signed in there (a shared browser): the page was hers', () => {
    rememberSignedIn(maria.id);
    const state = signInReturn({ pathname: '/community/thread/1', search: '' });
    expect(afterSignIn(state, ines)).toBe('/dashboard');
    expect(afterSignIn(state, maria)).toBe('/community/thread/1');
    expect(afterSignIn({ from: '/journal' }, maria)).toBe('/dashboard'); // made before it named her
  });

  it('keeps no page after she signed out herself, until the next sign-in', () => {
    rememberSignedIn(maria.id);
    rememberLeftOnPurpose();
    expect(leftOnPurpose()).toBe(true);
    expect(signInReturn({ pathname: '/journal', search: '' })).toBeNull();
    rememberSignedIn(ines.id);
    expect(leftOnPurpose()).toBe(false);
    expect(signInReturn({ pathname: '/journal', search: '' })).toEqual({ from: '/journal', userId: ines.id });
  });

  it('goes Home without one, or for anything that is not a page of this app', () => {
    for (const from of [undefined, 42, 'https://evil.example/', '//evil.example', '/\\evil.example', 'journal', '/auth', '/auth?x=1']) {
      expect(afterSignIn({ from, userId: null }, maria), String(from)).toBe('/dashboard');
    }
    for (const state of [null, undefined, {}]) expect(afterSignIn(state, maria)).toBe('/dashboard');
  });
});
