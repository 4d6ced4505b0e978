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

/**
 * A request that a page of another site (or of a sibling subdomain) made her browser send,
 * by its Fetch Metadata (Sec-Fetch-Site): a link, a redirect, a form, an image or a script
 * there. A top-level GET carries SameSite=Lax cookies, so a link elsewhere could otherwise
 * have an admin open a participant's record (an audited read), or a member join a thread,
 * without knowing it. Only
 * browsers send the header; `none` is her own typing or bookmark, and the app's own calls
 * are `same-origin`.
 */
export function isForeignFetch(site: string | string[] | undefined): boolean {
  return site === 'cross-site' || site === 'same-site';
}
