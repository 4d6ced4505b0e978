import { ApiError, TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
import type { z } from 'zod';

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
  constructor(cause: unknown) {
    super('Network error', { cause });
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
 * What to tell her when something failed: the server's words when Sleepweave is
 * temporarily unavailable (or still setting up her profile), else the screen's own.
 */
export function failureMessage(error: unknown, fallback: string): string {
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

export interface RequestOptions<T> {
  /** Validates and types the JSON answer. */
  schema?: z.ZodType<T>;
  /**
   * Whether a 401 answer triggers the unauthorized handler (default true). The session
   * probe and the login call turn this off: for them a 401 is an expected answer.
   */
  redirectOnUnauthorized?: boolean;
  signal?: AbortSignal;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function request<T>(method: Method, path: string, body: unknown, options: RequestOptions<T>): Promise<T> {
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    signal: options.signal ?? null,
  };
  if (method !== 'GET') {
    // The gateway refuses mutating requests that are not JSON, so always send a JSON body.
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body ?? {});
  }

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }

  if (!response.ok) {
    const text = (await response.text().catch(() => '')) || response.statusText;
    const error = new ApiRequestError(response.status, text, parseApiError(text));
    if (response.status === 401 && options.redirectOnUnauthorized !== false) unauthorizedHandler?.();
    throw error;
  }

  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  return options.schema ? options.schema.parse(data) : (data as T);
}

function parseApiError(text: string): ApiError | null {
  try {
    const parsed = ApiError.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const api = {
  get: <T>(path: string, options: RequestOptions<T> = {}) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options: RequestOptions<T> = {}) => request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options: RequestOptions<T> = {}) => request<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown, options: RequestOptions<T> = {}) => request<T>('PATCH', path, body, options),
  delete: <T>(path: string, body?: unknown, options: RequestOptions<T> = {}) => request<T>('DELETE', path, body, options),
};
