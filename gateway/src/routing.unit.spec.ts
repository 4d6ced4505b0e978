import { describe, expect, it } from 'vitest';
import { findRoute, isAppPath, isPlainPath, type Route } from './routing.ts';

describe('findRoute', () => {
  it('matches a prefix exactly or as a path segment', () => {
    expect(findRoute('GET', '/api/user')?.service).toBe('identity');
    expect(findRoute('GET', '/api/auth/user')?.access).toBe('session');
    expect(findRoute('POST', '/api/login')?.access).toBe('public');
  });

  it('routes the account paths to identity: reset public, settings with a session, user deletion for admins', () => {
    expect(findRoute('POST', '/api/forgot-password')).toMatchObject({ service: 'identity', access: 'public' });
    expect(findRoute('GET', '/api/validate-reset-token')).toMatchObject({ service: 'identity', access: 'public' });
    expect(findRoute('POST', '/api/reset-password')).toMatchObject({ service: 'identity', access: 'public' });
    expect(findRoute('PUT', '/api/profile')).toMatchObject({ service: 'identity', access: 'session' });
    expect(findRoute('POST', '/api/account/password')).toMatchObject({ service: 'identity', access: 'session' });
    expect(findRoute('DELETE', '/api/account')).toMatchObject({ service: 'identity', access: 'session' });
    expect(findRoute('DELETE', '/api/admin/users/7f0c')).toMatchObject({ service: 'identity', access: 'admin' });
    expect(findRoute('GET', '/api/account')).toBeUndefined();
  });

  it('routes the admin dashboard to research-export and role changes to identity, admins only', () => {
    for (const path of ['/api/admin/stats', '/api/admin/users', '/api/admin/user/7f0c', '/api/admin/export/users', '/api/admin/audit']) {
      expect(findRoute('GET', path)).toMatchObject({ service: 'research-export', access: 'admin' });
    }
    expect(findRoute('PUT', '/api/admin/users/7f0c/role')).toMatchObject({ service: 'identity', access: 'admin' });
    expect(findRoute('POST', '/api/admin/stats')).toBeUndefined();
    expect(findRoute('GET', '/api/admin/userx')).toBeUndefined();
    expect(findRoute('GET', '/api/research/audit/me')).toMatchObject({ service: 'research-export', access: 'session' });
  });

  it('routes the sleep study to the study service, with a session', () => {
    expect(findRoute('GET', '/api/sleep/consent')).toMatchObject({ service: 'study', access: 'session' });
    expect(findRoute('PUT', '/api/sleep/log/7f0c')).toMatchObject({ service: 'study', access: 'session' });
    expect(findRoute('GET', '/api/sleeplog')).toBeUndefined();
  });

  it('routes the library: reading with a session, writing only for admins', () => {
    expect(findRoute('GET', '/api/library/cards')).toMatchObject({ service: 'library', access: 'session' });
    expect(findRoute('GET', '/api/library/card/7f0c')).toMatchObject({ service: 'library', access: 'session' });
    expect(findRoute('HEAD', '/api/library/images/linen.svg')).toMatchObject({ service: 'library', access: 'session' });
    expect(findRoute('POST', '/api/library/cards')).toMatchObject({ service: 'library', access: 'admin' });
    expect(findRoute('PUT', '/api/library/card/7f0c')).toMatchObject({ service: 'library', access: 'admin' });
    expect(findRoute('DELETE', '/api/library/card/7f0c')).toMatchObject({ service: 'library', access: 'admin' });
    expect(findRoute('GET', '/api/libraryx')).toBeUndefined();
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

describe('isPlainPath', () => {
  it.each([
    ['/api/user', true],
    ['/api/library/card/3f2a', true],
    ['/api/library/cards', true],
    ['/api/login/../../internal/session/refresh', false],
    ['/api/login/%2e%2e/%2E%2E/internal/session/refresh', false],
    ['/api/login/./user', false],
    ['/api/login\\..\\user', false],
    ['/api/login%2f..%2fuser', false],
    ['/api/%E0%A4%A', false],
  ])('%s -> %s', (path, plain) => {
    expect(isPlainPath(path)).toBe(plain);
  });
});
