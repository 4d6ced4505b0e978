import { describe, expect, it } from 'vitest';
import { findRoute, isAppPath } from './routing.ts';

describe('findRoute', () => {
  it('matches a prefix exactly or as a path segment', () => {
    expect(findRoute('/api/user')?.service).toBe('identity');
    expect(findRoute('/api/auth/user')?.access).toBe('session');
    expect(findRoute('/api/login')?.access).toBe('public');
  });

  it('does not match a longer word or an unknown path', () => {
    expect(findRoute('/api/users')).toBeUndefined();
    expect(findRoute('/api/loginx')).toBeUndefined();
    expect(findRoute('/internal/session/refresh')).toBeUndefined();
    expect(findRoute('/api/unknown')).toBeUndefined();
  });
});

describe('isAppPath', () => {
  it('sends the SPA for router paths, not for the API, the socket or missing files', () => {
    expect(isAppPath('/')).toBe(true);
    expect(isAppPath('/library/article/7f0c')).toBe(true);
    expect(isAppPath('/api/user')).toBe(false);
    expect(isAppPath('/ws')).toBe(false);
    expect(isAppPath('/assets/index-abc123.js')).toBe(false);
    expect(isAppPath('/favicon.ico')).toBe(false);
  });
});
