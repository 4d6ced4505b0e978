import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOT_CONFIRMED_MESSAGE, TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
import { ZodError } from 'zod';
import {
  api,
  ApiRequestError,
  failureMessage,
  FILE_TIMEOUT_MS,
  isNetworkError,
  isTemporarilyUnavailable,
  REQUEST_TIMEOUT_MS,
  serverMessage,
  setUnauthorizedHandler,
} from './api-client';
import { lazySchema } from './contracts';

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
});

describe('api client', () => {
  it('raises HTTP errors as "status: response text" and keeps the parsed body', async () => {
    stubFetch(json(409, { error: 'conflict', message: 'An account with this email already exists.' }));

    const error = await api.post('/api/register', { email: 'a@b.c' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiRequestError);
    const apiError = error as ApiRequestError;
    expect(apiError.message).toBe('409: {"error":"conflict","message":"An account with this email already exists."}');
    expect(apiError.status).toBe(409);
    expect(apiError.body).toEqual({ error: 'conflict', message: 'An account with this email already exists.' });
    expect(serverMessage(apiError)).toBe('An account with this email already exists.');
  });

  it('keeps no body when the error answer is JSON but not { error, message }', async () => {
    stubFetch(json(400, { error: 'validation' }));

    const error = (await api.post('/api/login', {}).catch((e: unknown) => e)) as ApiRequestError;

    expect(error.status).toBe(400);
    expect(error.body).toBeNull();
    expect(serverMessage(error)).toBeUndefined();
  });

  it("checks an answer with a schema loaded on first use (the shell's calls), as with one passed as is", async () => {
    const schema = lazySchema((contracts) => contracts.MessageResponse);
    stubFetch(json(200, { message: 'Logged out.' }));
    expect(await api.post('/api/logout', {}, { schema })).toEqual({ message: 'Logged out.' });

    stubFetch(json(200, { note: 'not a message' }));
    const error = await api.post('/api/logout', {}, { schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZodError);
  });

  it('raises a network error when the schema to check an answer with cannot load', async () => {
    stubFetch(json(200, { message: 'Logged out.' }));
    const offline = new TypeError('Failed to fetch dynamically imported module');

    const error = await api.post('/api/logout', {}, { schema: () => Promise.reject(offline) }).catch((e: unknown) => e);

    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).cause).toBe(offline);
  });

  it('uses the status text when the error answer has no body', async () => {
    stubFetch(new Response(null, { status: 502, statusText: 'Bad Gateway' }));

    const error = (await api.get('/api/user').catch((e: unknown) => e)) as ApiRequestError;

    expect(error.message).toBe('502: Bad Gateway');
    expect(error.body).toBeNull();
    expect(serverMessage(error)).toBeUndefined();
  });

  it('sends cookies, and every non-GET request as JSON with a body ({} when empty)', async () => {
    const fetchMock = stubFetch(json(200, { message: 'Logged out' }));

    await api.post('/api/logout');
    const [, postInit] = fetchMock.mock.calls[0]!;
    expect(postInit?.method).toBe('POST');
    expect(postInit?.credentials).toBe('same-origin');
    expect(new Headers(postInit?.headers).get('content-type')).toBe('application/json');
    expect(postInit?.body).toBe('{}');

    fetchMock.mockResolvedValueOnce(json(200, {}));
    await api.get('/api/user');
    const [, getInit] = fetchMock.mock.calls[1]!;
    expect(getInit?.method).toBe('GET');
    expect(getInit?.credentials).toBe('same-origin');
    expect(getInit?.body).toBeUndefined();
    expect(new Headers(getInit?.headers).has('content-type')).toBe(false);
  });

  it('calls the unauthorized handler on a 401', async () => {
    stubFetch(json(401, { error: 'unauthorized', message: 'Please sign in' }));
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);

    const error = (await api.get('/api/journal/entries').catch((e: unknown) => e)) as ApiRequestError;

    expect(error.status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('leaves a 401 to the caller when the call opts out (session probe, login)', async () => {
    stubFetch(json(401, { error: 'unauthorized', message: 'Invalid email or password' }));
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);

    const error = (await api
      .post('/api/login', { email: 'a@b.c', password: 'x' }, { redirectOnUnauthorized: false })
      .catch((e: unknown) => e)) as ApiRequestError;

    expect(error.message).toBe('401: {"error":"unauthorized","message":"Invalid email or password"}');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('does not treat other error statuses as unauthorized', async () => {
    stubFetch(json(403, { error: 'forbidden', message: 'No' }));
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);

    await api.get('/api/admin/stats').catch(() => undefined);

    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('raises a network error when no answer arrives', async () => {
    stubFetch(new TypeError('Failed to fetch'));

    const error = await api.post('/api/login', {}).catch((e: unknown) => e);

    expect(isNetworkError(error)).toBe(true);
  });

  it("gives up a request whose answer does not begin within REQUEST_TIMEOUT_MS, as a network error; a file waits longer; a caller's abort stays an abort", async () => {
    // a network that swallows the request: fetch settles only when its signal aborts
    const swallowed = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError'))),
        ),
    );
    vi.stubGlobal('fetch', swallowed);
    vi.useFakeTimers();
    try {
      const saving = api.post('/api/journal/entry', {}).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      expect(await Promise.race([saving, Promise.resolve('waiting')])).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      const unanswered = await saving;
      expect(isNetworkError(unanswered)).toBe(true);
      // a change whose answer never came may have been made: she is not told it failed
      expect(failureMessage(unanswered, 'Failed to save journal entry. Please try again.')).toBe(NOT_CONFIRMED_MESSAGE);

      const file = api.getFile('/api/sleep/export?format=pdf').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
      expect(await Promise.race([file, Promise.resolve('waiting')])).toBe('waiting');
      await vi.advanceTimersByTimeAsync(FILE_TIMEOUT_MS - REQUEST_TIMEOUT_MS);
      const unansweredRead = await file;
      expect(isNetworkError(unansweredRead)).toBe(true);
      expect(failureMessage(unansweredRead, 'Export failed.')).toBe('Export failed.');

      const caller = new AbortController();
      const cancelled = api.get('/api/sleep/logs', { signal: caller.signal }).catch((e: unknown) => e);
      caller.abort();
      const error = await cancelled;
      expect(isNetworkError(error)).toBe(false);
      expect((error as DOMException).name).toBe('AbortError');
    } finally {
      vi.useRealTimers();
    }
  });

  it('returns the parsed JSON of a successful answer', async () => {
    stubFetch(json(200, { message: 'ok' }));
    await expect(api.get<{ message: string }>('/api/anything')).resolves.toEqual({ message: 'ok' });
  });

  it('tells a part of Sleepweave being down from any other failure', async () => {
    stubFetch(json(503, { error: 'unavailable', message: TEMPORARILY_UNAVAILABLE_MESSAGE }));
    const down = await api.get('/api/journal/entries').catch((e: unknown) => e);
    expect(isTemporarilyUnavailable(down)).toBe(true);
    expect(failureMessage(down, 'Failed to save journal entry. Please try again.')).toBe(TEMPORARILY_UNAVAILABLE_MESSAGE);

    stubFetch(new Response('Bad Gateway', { status: 502 }));
    const proxy = await api.get('/api/journal/entries').catch((e: unknown) => e);
    expect(failureMessage(proxy, 'Failed')).toBe(TEMPORARILY_UNAVAILABLE_MESSAGE);

    stubFetch(json(500, { error: 'internal', message: 'Something went wrong. Please try again.' }));
    const bug = await api.get('/api/journal/entries').catch((e: unknown) => e);
    expect(isTemporarilyUnavailable(bug)).toBe(false);
    expect(failureMessage(bug, 'Failed to save journal entry. Please try again.')).toBe('Failed to save journal entry. Please try again.');
  });

  it('says how long to wait when she has reached a limit (429), in the server’s words', async () => {
    const wait = 'You can export up to 30 times in 10 minutes. Please wait a few minutes and try again.';
    stubFetch(json(429, { error: 'too_many_requests', message: wait }));
    const limited = await api.get('/api/journal/export?format=md').catch((e: unknown) => e);
    expect(failureMessage(limited, 'Failed to export your journal. Please try again.')).toBe(wait);
  });
});
