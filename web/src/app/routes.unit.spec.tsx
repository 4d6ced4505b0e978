// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_ACCESS_TEXT } from '../components/no-access';
import { userQueryKey } from '../lib/auth';
import { deferred, jsonResponse, reloadQueries, renderWithProviders } from '../testing/render';
import { RootLayout } from './root-layout';
import { createRoutes } from './routes';
import { maria } from '../testing/fixtures';

const fetchMock = vi.fn<typeof fetch>();
const signedOut = () => jsonResponse(401, { error: 'unauthorized', message: 'Not signed in' });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe('routes', () => {
  it('shows 404 Page Not Found for an unknown path, with a link home', async () => {
    fetchMock.mockImplementation(async () => signedOut());
    renderWithProviders(createRoutes(), { path: '/no/such/page' });

    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/');
  });

  it('shows a bar while the next page is on its way (its code loading), gone once it is there', async () => {
    fetchMock.mockImplementation(async () => signedOut());
    const code = deferred<{ Component: () => React.JSX.Element }>();
    const routes = [
      {
        Component: RootLayout,
        children: [
          { path: '/', Component: () => <h1>Here</h1> },
          { path: '/next', lazy: () => code.promise },
        ],
      },
    ];
    const { router } = renderWithProviders(routes, { path: '/' });
    expect(await screen.findByRole('heading', { name: 'Here' })).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: 'Loading the page' })).toBeNull();
    act(() => {
      void router.navigate('/next');
    });
    expect(await screen.findByRole('progressbar', { name: 'Loading the page' })).toBeTruthy();
    code.resolve({ Component: () => <h1>There</h1> });
    expect(await screen.findByRole('heading', { name: 'There' })).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: 'Loading the page' })).toBeNull();
  });

  it('sends a signed-out visitor of a guarded path to /auth', async () => {
    fetchMock.mockImplementation(async () => signedOut());
    const { router } = renderWithProviders(createRoutes(), { path: '/journal?from=mail' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    // where signing in takes her (a link opened while nobody had signed in in the tab: whoever signs in)
    expect(router.state.location.state).toEqual({ from: '/journal?from=mail', userId: null });
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
      // A heading may not sit inside a <span> (phrasing content).
      expect(tile?.querySelector('h2')?.closest('span')).toBeNull();
    }
  });

  it('keeps her page when a background reload of her session fails', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, maria));
    const { queryClient } = renderWithProviders(createRoutes(), { path: '/dashboard' });
    expect(await screen.findByRole('heading', { level: 1, name: /Maria/ })).toBeTruthy();

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'Try later' }));
    await reloadQueries(queryClient, userQueryKey);

    expect(queryClient.getQueryState(userQueryKey)?.status).toBe('error');
    expect(screen.queryByText("We couldn't reach Sleepweave")).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: /Maria/ })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it("says it couldn't reach Sleepweave when her session cannot be loaded at all", async () => {
    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'Try later' }));
    renderWithProviders(createRoutes(), { path: '/dashboard' });
    expect(await screen.findByRole('heading', { name: "We couldn't reach Sleepweave" })).toBeTruthy();
  });

  it('does not blame her connection when the server answered her session with a failure of its own', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' }));
    renderWithProviders(createRoutes(), { path: '/dashboard' });
    expect(await screen.findByRole('heading', { name: "We couldn't load your session" })).toBeTruthy();
    expect(screen.getByText('Something went wrong on our side. Please try again.')).toBeTruthy();
    expect(screen.queryByText('Please check your connection and try again.')).toBeNull();
  });

  it('names each page in the tab title', async () => {
    fetchMock.mockImplementation(async (input) => jsonResponse(200, String(input) === '/api/user' ? maria : []));
    const { router } = renderWithProviders(createRoutes(), { path: '/journal' });
    await screen.findByRole('heading', { level: 1, name: 'Daily Journal' });
    await waitFor(() => expect(document.title).toBe('Daily Journal · Sleepweave'));

    await act(() => router.navigate('/calculator'));
    await waitFor(() => expect(document.title).toBe('Clothes Frequency Calculator · Sleepweave'));
    await act(() => router.navigate('/no/such/page'));
    await waitFor(() => expect(document.title).toBe('Page Not Found · Sleepweave'));
  });

  it("names an article's page after the article once it is loaded, and the next page after itself", async () => {
    const id = 'c4cc3ba4-d882-46af-bb30-e10a494dbbd7';
    const article = {
      id,
      category: 'Fabric info',
      title: 'Why linen breathes',
      summary: 'Flax fibres and night sweats.',
      imagePath: '/api/library/images/linen.svg',
      tags: [],
      bodyHtml: '<p>Linen.</p>',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
    };
    fetchMock.mockImplementation(async (input) =>
      jsonResponse(200, String(input) === '/api/user' ? maria : String(input).endsWith(id) ? article : []),
    );
    const { router } = renderWithProviders(createRoutes(), { path: `/library/article/${id}` });
    await screen.findByRole('heading', { level: 1, name: 'Why linen breathes' });
    await waitFor(() => expect(document.title).toBe('Why linen breathes · Sleepweave'));
    await act(() => router.navigate('/calculator'));
    await waitFor(() => expect(document.title).toBe('Clothes Frequency Calculator · Sleepweave'));
    // one that is not there says so in the tab too (it said 'Library Article')
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/user' ? jsonResponse(200, maria) : jsonResponse(404, { error: 'not_found', message: 'Article not found' }),
    );
    await act(() => router.navigate('/library/article/5d0c1b9e-5f7a-4f3e-9a57-2d1f7c1a0b11'));
    await screen.findByRole('heading', { level: 1, name: 'Article Not Found' });
    await waitFor(() => expect(document.title).toBe('Article Not Found · Sleepweave'));
  });

  it('moves focus to the new page heading after a navigation, not on the first load', async () => {
    fetchMock.mockImplementation(async (input) => jsonResponse(200, String(input) === '/api/user' ? maria : []));
    renderWithProviders(createRoutes(), { path: '/dashboard' });
    await screen.findByRole('heading', { level: 1, name: /Maria/ });
    expect(document.activeElement).toBe(document.body);

    const user = userEvent.setup();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'Daily Journal' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'Daily Journal' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('moves focus on to the heading of a page that was still loading when it opened (an article)', async () => {
    const id = '3f0c1f8e-5a9b-4c1e-9d2a-7b6c5d4e3f21';
    const article = deferred<Response>();
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/user' ? jsonResponse(200, maria) : String(input).endsWith(id) ? article.promise : jsonResponse(200, []),
    );
    const { router } = renderWithProviders(createRoutes(), { path: '/dashboard' });
    await screen.findByRole('heading', { level: 1, name: /Maria/ });
    await act(() => router.navigate(`/library/article/${id}`));
    await screen.findByText('Loading article...');
    expect(document.activeElement?.tagName).toBe('MAIN');
    article.resolve(
      jsonResponse(200, {
        id,
        category: 'Fabric info',
        title: 'Why linen breathes',
        summary: 'Flax fibres.',
        imagePath: '/api/library/images/linen.svg',
        tags: [],
        bodyHtml: '<p>Linen.</p>',
        createdAt: '2026-11-20T10:00:00.000Z',
        updatedAt: '2026-11-20T10:00:00.000Z',
      }),
    );
    const heading = await screen.findByRole('heading', { level: 1, name: 'Why linen breathes' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('opens /admin/research, which tells a participant it is for study administrators', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, maria));
    renderWithProviders(createRoutes(), { path: '/admin/research' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Research Runs' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'No access' })).toBeTruthy();
    expect(screen.getByText(NO_ACCESS_TEXT)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Research Runs · Sleepweave'));
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/admin'))).toHaveLength(0);
  });

  it('sends a signed-in user away from /auth to /dashboard', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, maria));
    const { router } = renderWithProviders(createRoutes(), { path: '/auth' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('or back to the page her session ended on, once she is signed in there', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, maria));
    const { router } = renderWithProviders(createRoutes(), { path: '/auth', state: { from: '/calculator', userId: maria.id } });

    await waitFor(() => expect(router.state.location.pathname).toBe('/calculator'));
  });

  it("but not to another user's: the page was of whoever's session ended there (a shared browser)", async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, maria));
    const { router } = renderWithProviders(createRoutes(), {
      path: '/auth',
      state: { from: '/community/thread/7', userId: '9c2d7a10-4b3e-4f5a-8e6d-1a2b3c4d5e6f' },
    });

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('takes her to /dashboard after registering, whatever page the sign-in would have gone back to (spec)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fetchMock.mockImplementation(async (url) =>
        String(url) === '/api/register' ? jsonResponse(201, { message: 'Registered', user: maria }) : signedOut(),
      );
      const { router } = renderWithProviders(createRoutes(), { path: '/auth', state: { from: '/calculator', userId: null } });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await user.click(await screen.findByRole('tab', { name: 'Sign Up' }));
      for (const [label, value] of Object.entries({
        'First name': 'Maria',
        'Last name': 'Lopez',
        Email: 'maria@example.com',
        Password: 'calm-nights-42',
        'Confirm password': 'calm-nights-42',
        'Date of birth': '1970-05-14',
      }))
        await user.type(within(await screen.findByRole('form', { name: 'Sign up' })).getByLabelText(label), value);
      await user.click(screen.getByRole('button', { name: 'Create Account' }));
      expect(await screen.findByText('Account created successfully! Redirecting...')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(1_500));

      await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      await act(() => vi.advanceTimersByTimeAsync(500));
      expect(router.state.location.pathname).toBe('/dashboard');
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens a thread linked with its id in capitals at its lower-case address (live frames name it so)', async () => {
    fetchMock.mockImplementation(async (url) => (String(url) === '/api/user' ? jsonResponse(200, maria) : signedOut()));
    const { router } = renderWithProviders(createRoutes(), { path: '/community/thread/C0FFEE00-5EED-4A11-9E1C-000000000001' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/community/thread/c0ffee00-5eed-4a11-9e1c-000000000001'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/community/thread/c0ffee00-5eed-4a11-9e1c-000000000001'),
    );
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('C0FFEE'))).toEqual([]);
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
