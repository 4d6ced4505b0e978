import { describe, expect, it } from 'vitest';
import { findRoute } from './routing.ts';

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
