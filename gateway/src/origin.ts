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
 * are `same-origin` (and, in a browser without the header, ask for JSON or anything).
 */
export function isForeignFetch(site: string | string[] | undefined, accept: string | undefined): boolean {
  if (site === 'cross-site' || site === 'same-site') return true;
  // A browser that sends no Fetch Metadata (Safari before 16.4) still tells a navigation
  // apart: it asks for HTML. A page elsewhere can make her browser send her SameSite=Lax
  // cookies only with a navigation (a link, a GET form, a redirect), and the app never
  // navigates to its API, so such a request is taken for one made elsewhere.
  return site === undefined && accept !== undefined && /\btext\/html\b/i.test(accept);
}
