/**
 * A mutating request (and a WebSocket) must come from the app's own origin, `APP_URL`:
 * scheme, host and port, nothing else (not the request's own Host header, which a
 * client chooses). A request without Origin comes from no browser at all.
 */
export function isAllowedOrigin(origin: string | undefined, appUrl: string): boolean {
  if (origin === undefined) return true;
  try {
    return new URL(origin).origin === new URL(appUrl).origin;
  } catch {
    return false;
  }
}
