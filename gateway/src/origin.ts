/** A mutating request must come from our own origin (or from no browser at all). */
export function isAllowedOrigin(origin: string | undefined, host: string | undefined, appUrl: string): boolean {
  if (origin === undefined) return true;
  if (origin === new URL(appUrl).origin) return true;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
