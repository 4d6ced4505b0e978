// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, setUnauthorizedHandler } from '../lib/api-client';
import { userQueryKey } from '../lib/auth';
import { jsonResponse, renderWithProviders } from '../testing/render';
import { createRoutes } from './routes';
import { createUnauthorizedHandler } from './unauthorized';
import { maria } from '../testing/fixtures';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
});

describe('a 401 from any call', () => {
  it('clears the cached user and her data, then shows /auth', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, maria));
    const { router, queryClient } = renderWithProviders(createRoutes(), { path: '/dashboard' });
    setUnauthorizedHandler(createUnauthorizedHandler(queryClient, router));
    expect(await screen.findByRole('heading', { level: 1, name: /Maria/ })).toBeTruthy();
    queryClient.setQueryData(['journal', 'entries'], [{ id: 'x' }]);

    fetchMock.mockResolvedValueOnce(jsonResponse(401, { error: 'unauthorized', message: 'Session expired' }));
    await expect(api.get('/api/journal/entries')).rejects.toThrow('401: ');

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.state).toEqual({ from: '/dashboard', userId: maria.id }); // where signing in takes her back
    expect(queryClient.getQueryData(userQueryKey)).toBeNull();
    expect(queryClient.getQueryData(['journal', 'entries'])).toBeUndefined();
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeTruthy();
  });
});
