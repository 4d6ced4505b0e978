/**
 * Who answers each public path, and what it takes to reach it: nothing (`public`), a
 * session if there is one (`optional`), a session (`session`), an admin's session (`admin`).
 */
export type Access = 'public' | 'optional' | 'session' | 'admin';

export interface Route {
  /** A path prefix under /api (exact match, or followed by `/`). */
  prefix: string;
  /** Only these methods (default: any). */
  methods?: string[];
  service: ServiceName;
  access: Access;
  /**
   * The client's cookies go to the service too. Only where it reads one: no other service,
   * and no other route, sees her refresh token (the gateway reads the cookies itself and
   * sends the service the access token as a Bearer header).
   */
  cookies?: true;
}

export type ServiceName = 'identity' | 'study' | 'journal' | 'community' | 'library' | 'research-export';

/**
 * The spec's "calls it makes" table, by owning service. Later services add their rows.
 * Paths not listed here answer 404 from the gateway itself, so nothing internal
 * (e.g. identity's /internal/*) is reachable from outside.
 */
export const ROUTES: Route[] = [
  { prefix: '/api/register', service: 'identity', access: 'public' },
  { prefix: '/api/login', service: 'identity', access: 'public' },
  // the refresh cookie names the session to end when no access token does
  { prefix: '/api/logout', service: 'identity', access: 'optional', cookies: true },
  { prefix: '/api/user', service: 'identity', access: 'session' },
  { prefix: '/api/auth/user', service: 'identity', access: 'session' },
  { prefix: '/api/forgot-password', methods: ['POST'], service: 'identity', access: 'public' },
  { prefix: '/api/validate-reset-token', methods: ['GET'], service: 'identity', access: 'public' },
  { prefix: '/api/reset-password', methods: ['POST'], service: 'identity', access: 'public' },
  { prefix: '/api/profile', methods: ['PUT'], service: 'identity', access: 'session' },
  // POST /api/account/password (change password), DELETE /api/account (delete her account)
  { prefix: '/api/account', methods: ['POST', 'DELETE'], service: 'identity', access: 'session' },
  // before any '/api/admin' row: deleting a user is identity's
  { prefix: '/api/admin/users', methods: ['DELETE'], service: 'identity', access: 'admin' },
  // granting and revoking the admin role (PUT /api/admin/users/{id}/role): users own their roles
  { prefix: '/api/admin/users', methods: ['PUT'], service: 'identity', access: 'admin' },
  // the admin dashboard (docs/admin.md): research-export's admin read model and audit trail
  { prefix: '/api/admin/stats', methods: ['GET'], service: 'research-export', access: 'admin' },
  { prefix: '/api/admin/users', methods: ['GET'], service: 'research-export', access: 'admin' },
  { prefix: '/api/admin/user', methods: ['GET'], service: 'research-export', access: 'admin' },
  { prefix: '/api/admin/export', methods: ['GET'], service: 'research-export', access: 'admin' },
  { prefix: '/api/admin/audit', methods: ['GET'], service: 'research-export', access: 'admin' },
  { prefix: '/api/community', service: 'community', access: 'session' },
  { prefix: '/api/sleep', service: 'study', access: 'session' },
  { prefix: '/api/journal', service: 'journal', access: 'session' },
  // Writing to the library (publishing, revising articles) is for admins; reading is for anyone signed in.
  { prefix: '/api/library', methods: ['POST', 'PUT', 'PATCH', 'DELETE'], service: 'library', access: 'admin' },
  { prefix: '/api/library', service: 'library', access: 'session' },
  { prefix: '/api/admin/research', service: 'research-export', access: 'admin' },
  // her own export (the dashboard's Research Export card)
  { prefix: '/api/research/export', methods: ['GET'], service: 'research-export', access: 'session' },
  // who among the admins looked at her data, and when (Settings)
  { prefix: '/api/research/audit/me', methods: ['GET'], service: 'research-export', access: 'session' },
];

/** The first route whose prefix and method match: more specific rows come first. */
export function findRoute(method: string, path: string, routes: Route[] = ROUTES): Route | undefined {
  return routes.find(
    (route) =>
      (path === route.prefix || path.startsWith(`${route.prefix}/`)) &&
      (!route.methods || route.methods.includes(method === 'HEAD' ? 'GET' : method)),
  );
}

/** A path the browser router owns: not the API, the socket, or a missing file (e.g. an old /assets/ chunk). */
export function isAppPath(path: string): boolean {
  if (path === '/api' || path.startsWith('/api/') || path === '/ws') return false;
  return !path.startsWith('/assets/') && !/\.[A-Za-z0-9]{1,8}$/.test(path);
}

/**
 * True when the path means the same to us and to the service: no `.` or `..` segment
 * (raw or percent-encoded), no backslash and no encoded `/` or `\`. Anything else could be
 * rewritten by URL resolution after routing (`/api/login/../../internal/...`).
 */
export function isPlainPath(path: string): boolean {
  if (path.includes('\\') || /%2f|%5c/i.test(path)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return !decoded.split('/').some((segment) => segment === '.' || segment === '..');
}
