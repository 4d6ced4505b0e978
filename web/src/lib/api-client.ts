import type { ApiError } from '@sleepweave/contracts';
import { NOT_CONFIRMED_MESSAGE, SIGNED_IN_USER_HEADER, TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts/messages';
import type { z } from 'zod';
import { loadContracts } from './contracts';

/**
 * An HTTP error answer. The message is "<status>: <response text>" (docs/product.md §8);
 * `status` and the parsed `{ error, message }` body stay on the object so screens can
 * show the server's own words through `serverMessage()`.
 */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    readonly status: number,
    readonly text: string,
    readonly body: ApiError | null,
  ) {
    super(`${status}: ${text}`);
  }
}

/** The request never got an answer (offline, DNS, connection refused...). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  /**
   * A change sent whose answer never came in time (REQUEST_TIMEOUT_MS): it may have been made
   * (a server that went on once she had given up), so she is not told it failed.
   */
  readonly unconfirmed: boolean;
  constructor(cause: unknown, { unconfirmed = false } = {}) {
    super('Network error', { cause });
    this.unconfirmed = unconfirmed;
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}

/** The server's `message` for an error answer, or undefined. */
export function serverMessage(error: unknown): string | undefined {
  return isApiRequestError(error) ? error.body?.message || undefined : undefined;
}

/**
 * A part of Sleepweave is down or restarting (the gateway or a service answered 502, 503
 * or 504): the screen says so, rather than a generic failure, and she can try again.
 */
export function isTemporarilyUnavailable(error: unknown): boolean {
  return isApiRequestError(error) && [502, 503, 504].includes(error.status);
}

/**
 * A change whose outcome is not known (NOT_CONFIRMED_MESSAGE): the browser waited for its
 * answer in vain, or the gateway answered 504 because its service did not answer in time.
 * It may have been made: the screens say so, not that it failed.
 */
export function isUnconfirmed(error: unknown): boolean {
  if (isNetworkError(error)) return error.unconfirmed;
  return isApiRequestError(error) && error.status === 504 && serverMessage(error) === NOT_CONFIRMED_MESSAGE;
}

/**
 * What to tell her when something failed: the server's words when Sleepweave is
 * temporarily unavailable (or still setting up her profile) or she has reached a limit
 * (429: how long to wait, which "Please try again" would not say), else the screen's own.
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (isApiRequestError(error) && error.status === 429) return serverMessage(error) ?? fallback;
  if (isUnconfirmed(error)) return NOT_CONFIRMED_MESSAGE;
  return isTemporarilyUnavailable(error) ? (serverMessage(error) ?? TEMPORARILY_UNAVAILABLE_MESSAGE) : fallback;
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * Registers what happens when any call answers 401 (the app clears the cached user and
 * goes to /auth). Returns a function that removes the handler.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

/** The user this tab was opened for (lib/auth.ts follows it); null while nobody is known. */
let signedInUser: string | null = null;

/**
 * Sets who this tab was opened for: every call but an `anyUser` one says so
 * (SIGNED_IN_USER_HEADER), and the gateway refuses it (401) when the browser's session has
 * become someone else's, signed in in another tab: what this tab sends was written by her.
 */
export function setSignedInUser(userId: string | null): void {
  signedInUser = userId;
}

export const signedInUserOfTab = (): string | null => signedInUser;

/** Runs the 401 handler (the app clears the session and goes to sign in), as a 401 answer does. */
export function signalUnauthorized(): void {
  unauthorizedHandler?.();
}

export interface RequestOptions<T> {
  /**
   * Validates and types the JSON answer: a schema, or a function that loads one (the app
   * shell's calls, `lazySchema` in ./contracts: loaded while the request is on its way).
   */
  schema?: z.ZodType<T> | (() => Promise<z.ZodType<T>>);
  /**
   * Whether a 401 answer triggers the unauthorized handler (default true). The session
   * probe and the login call turn this off: for them a 401 is an expected answer.
   */
  redirectOnUnauthorized?: boolean;
  signal?: AbortSignal;
  /** Sent as the Idempotency-Key header of a create she may send again (lib/idempotency.ts). */
  idempotencyKey?: string;
  /** Asks who is signed in, whoever this tab was opened for (GET /api/user): no SIGNED_IN_USER_HEADER. */
  anyUser?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How long a request waits for its answer to begin before it is given up as a network
 * failure (NetworkError: "check your connection", and her form editable again). Without
 * it, a request the network swallowed (a connection that stopped without closing, a
 * captive portal) showed "Saving..." for good, her text read-only.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
/** A file's: the server makes an export while she waits (a long journal's PDF takes a while). */
export const FILE_TIMEOUT_MS = 3 * 60_000;

/**
 * Sends the request and answers the response when it is ok; otherwise throws
 * `ApiRequestError` (after calling the 401 handler) or `NetworkError`.
 */
async function send(
  method: Method,
  path: string,
  body: unknown,
  options: RequestOptions<unknown>,
  accept: string,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Response> {
  // given up after timeoutMs without an answer, or when the caller's signal aborts (as it says)
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, timeoutMs);
  const callerAborted = () => abort.abort(options.signal?.reason);
  if (options.signal?.aborted) callerAborted();
  else options.signal?.addEventListener('abort', callerAborted, { once: true });
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: { accept, ...(signedInUser !== null && options.anyUser !== true ? { [SIGNED_IN_USER_HEADER]: signedInUser } : {}) },
    signal: abort.signal,
  };
  if (method !== 'GET') {
    // The gateway refuses mutating requests that are not JSON, so always send a JSON body.
    init.headers = {
      ...init.headers,
      'content-type': 'application/json',
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    };
    init.body = JSON.stringify(body ?? {});
  }

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (!timedOut && error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error, { unconfirmed: timedOut && method !== 'GET' });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', callerAborted);
  }

  if (!response.ok) {
    const text = (await response.text().catch(() => '')) || response.statusText;
    const error = new ApiRequestError(response.status, text, await parseApiError(text));
    if (response.status === 401 && options.redirectOnUnauthorized !== false) unauthorizedHandler?.();
    throw error;
  }
  return response;
}

async function request<T>(method: Method, path: string, body: unknown, options: RequestOptions<T>): Promise<T> {
  return (await requestWithResponse(method, path, body, options)).data;
}

/** `request`, also answering the response (for its headers). */
async function requestWithResponse<T>(
  method: Method,
  path: string,
  body: unknown,
  options: RequestOptions<T>,
): Promise<{ data: T; response: Response }> {
  // A schema to load starts loading with the request; a failed request leaves it unused.
  const loading = typeof options.schema === 'function' ? options.schema() : undefined;
  loading?.catch(() => undefined);
  const response = await send(method, path, body, options, 'application/json');
  return { data: await readJson(response, loading, options.schema), response };
}

async function readJson<T>(response: Response, loading: Promise<z.ZodType<T>> | undefined, given: RequestOptions<T>['schema']): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  let schema: z.ZodType<T> | undefined;
  try {
    schema = loading ? await loading : (given as z.ZodType<T> | undefined);
  } catch (error) {
    throw new NetworkError(error);
  }
  return schema ? schema.parse(data) : (data as T);
}

/** The header a paged list's answer names its next page in (docs/architecture.md, "Paging"). */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/** One page of a list: its items and the cursor of the next page, null on the last one. */
export interface ApiPage<T> {
  items: T;
  nextCursor: string | null;
}

/**
 * GET one page of a paged list (`?limit=`, `?cursor=`): the answer is the list itself, the
 * next page's cursor comes in the X-Next-Cursor header (absent on the last page).
 */
async function getPage<T>(path: string, options: RequestOptions<T> = {}): Promise<ApiPage<T>> {
  const { data, response } = await requestWithResponse('GET', path, undefined, options);
  return { items: data, nextCursor: response.headers.get(NEXT_CURSOR_HEADER) || null };
}

/** `path` with `?cursor=` (or `&cursor=`) added when there is one. */
export function withCursor(path: string, cursor: string | null | undefined): string {
  if (!cursor) return path;
  return `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
}

/** A file the server sent (a zip, say): its bytes and the name its Content-Disposition gives, if any. */
export interface ApiFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * GET a file: errors are raised as for any other call (an error answer is JSON
 * `{ error, message }`); the name comes from the Content-Disposition header.
 */
async function getFile(path: string, options: Omit<RequestOptions<unknown>, 'schema'> = {}): Promise<ApiFile> {
  const response = await send('GET', path, undefined, options, '*/*', FILE_TIMEOUT_MS);
  const blob = await response.blob();
  return { blob, fileName: fileNameFromContentDisposition(response.headers.get('content-disposition')) };
}

/**
 * The file name of a Content-Disposition header (`attachment; filename="a.zip"`, or the
 * RFC 6266 `filename*=UTF-8''a%20b.zip`, which wins), without any folder; null when none.
 */
export function fileNameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
  if (extended) {
    const match = /^([\w!#$%&+^`{}~-]+)'[^']*'(.+)$/.exec(extended.replace(/^"(.*)"$/, '$1'));
    if (match) {
      try {
        const charset = match[1]!;
        const encoded = match[2]!;
        name =
          charset.toLowerCase() === 'utf-8'
            ? decodeURIComponent(encoded)
            : encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      } catch {
        name = null;
      }
    }
  }
  if (!name) {
    const plain = /(?:^|;)\s*filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(header)?.[1]?.trim();
    if (plain) name = plain.startsWith('"') ? plain.slice(1, -1).replace(/\\(.)/g, '$1') : plain;
  }
  // Only the last part of a path, and never a name that is only dots.
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base && !/^\.+$/.test(base) ? base : null;
}

/** The `{ error, message }` of an error answer, checked by the shared schema; null when it is not one. */
async function parseApiError(text: string): Promise<ApiError | null> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  try {
    const parsed = (await loadContracts()).ApiError.safeParse(data);
    return parsed.success ? parsed.data : null;
  } catch {
    // The schemas could not load (the network went away meanwhile): the text is still there.
    return null;
  }
}

export const api = {
  get: <T>(path: string, options: RequestOptions<T> = {}) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options: RequestOptions<T> = {}) => request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options: RequestOptions<T> = {}) => request<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown, options: RequestOptions<T> = {}) => request<T>('PATCH', path, body, options),
  delete: <T>(path: string, body?: unknown, options: RequestOptions<T> = {}) => request<T>('DELETE', path, body, options),
  getFile,
  getPage,
};
