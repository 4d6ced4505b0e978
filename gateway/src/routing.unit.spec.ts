import { describe, expect, it } from 'vitest';
import { findRoute, isAppPath, type Route } from './routing.ts';

describe('findRoute', () => {
  it('matches a prefix exactly or as a path segment', () => {
    expect(findRoute('GET', '/api/user')?.service).toBe('identity');
    expect(findRoute('GET', '/api/auth/user')?.access).toBe('session');
    expect(findRoute('POST', '/api/login')?.access).toBe('public');
  });

  it('does not match a longer word or an unknown path', () => {
    expect(findRoute('GET', '/api/users')).toBeUndefined();
    expect(findRoute('POST', '/api/loginx')).toBeUndefined();
    expect(findRoute('POST', '/internal/session/refresh')).toBeUndefined();
    expect(findRoute('GET', '/api/unknown')).toBeUndefined();
  });

  it('honours methods, first matching row wins', () => {
    const routes: Route[] = [
      { prefix: '/api/admin/users', methods: ['DELETE'], service: 'identity', access: 'admin' },
      { prefix: '/api/admin', service: 'research-export', access: 'admin' },
    ];
    expect(findRoute('DELETE', '/api/admin/users/42', routes)?.service).toBe('identity');
    expect(findRoute('GET', '/api/admin/users', routes)?.service).toBe('research-export');
    expect(findRoute('HEAD', '/api/admin/stats', routes)?.service).toBe('research-export');
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
