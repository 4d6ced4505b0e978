/** Who answers each public path, and whether a session is needed to reach it. */
export type Access = 'public' | 'session' | 'optional';

export interface Route {
  /** A path prefix under /api (exact match or followed by `/` or `?`). */
  prefix: string;
  service: ServiceName;
  access: Access;
}

export type ServiceName = 'identity';

/**
 * The spec's "calls it makes" table, by owning service. Later services add their rows.
 * Paths not listed here answer 404 from the gateway itself, so nothing internal
 * (e.g. identity's /internal/*) is reachable from outside.
 */
export const ROUTES: Route[] = [
  { prefix: '/api/register', service: 'identity', access: 'public' },
  { prefix: '/api/login', service: 'identity', access: 'public' },
  { prefix: '/api/logout', service: 'identity', access: 'optional' },
  { prefix: '/api/user', service: 'identity', access: 'session' },
  { prefix: '/api/auth/user', service: 'identity', access: 'session' },
];

export function findRoute(path: string, routes: Route[] = ROUTES): Route | undefined {
  return routes.find((route) => path === route.prefix || path.startsWith(`${route.prefix}/`));
}

/** A path the browser router owns: not the API, the socket, or a missing file (e.g. an old /assets/ chunk). */
export function isAppPath(path: string): boolean {
  if (path === '/api' || path.startsWith('/api/') || path === '/ws') return false;
  return !path.startsWith('/assets/') && !/\.[A-Za-z0-9]{1,8}$/.test(path);
}
