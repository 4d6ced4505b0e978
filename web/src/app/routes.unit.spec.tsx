// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../testing/render';
import { createRoutes } from './routes';

const maria = {
  id: '6f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a1',
  email: 'maria@example.com',
  firstName: 'Maria',
  lastName: 'Lopez',
  profileImageUrl: null,
  dateOfBirth: '1970-05-14',
  timezone: 'America/New_York',
  hormonalStage: 'Menopause',
  role: 'participant',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const fetchMock = vi.fn<typeof fetch>();
const signedOut = () => jsonResponse(401, { error: 'unauthorized', message: 'Not signed in' });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('routes', () => {
  it('shows 404 Page Not Found for an unknown path, with a link home', async () => {
    fetchMock.mockImplementation(async () => signedOut());
    renderWithProviders(createRoutes(), { path: '/no/such/page' });

    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/');
  });

  it('sends a signed-out visitor of a guarded path to /auth', async () => {
    fetchMock.mockImplementation(async () => signedOut());
    const { router } = renderWithProviders(createRoutes(), { path: '/dashboard' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeTruthy();
  });

  it('shows the home screen with the four tiles to a signed-in user', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, maria));
    renderWithProviders(createRoutes(), { path: '/' });

    const main = await screen.findByRole('main');
    expect(await screen.findByRole('heading', { level: 1, name: /Maria/ })).toBeTruthy();
    for (const [name, href] of [
      ['Sleep Study', '/sleep/consent'],
      ['Daily Journal', '/journal'],
      ['Library', '/library'],
      ['Community', '/community'],
    ] as const) {
      const tile = Array.from(main.querySelectorAll('a')).find((a) => a.querySelector('h2')?.textContent === name);
      expect(tile?.getAttribute('href')).toBe(href);
    }
  });

  it('sends a signed-in user away from /auth to /dashboard', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, maria));
    const { router } = renderWithProviders(createRoutes(), { path: '/auth' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('clears the sign-in messages when switching tab', async () => {
    fetchMock.mockImplementation(async () => signedOut());
    renderWithProviders(createRoutes(), { path: '/auth' });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Password is required')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.click(screen.getByRole('tab', { name: 'Sign In' }));

    expect(screen.queryByText('Password is required')).toBeNull();
  });
});
