// @vitest-environment happy-dom
import { onlineManager } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_OUT_REDIRECT_MS } from '../../../lib/logged-out-redirect';
import {
  arrivalAt,
  deferred,
  jsonResponse,
  leavingAsks,
  pageResponse,
  refusesAction,
  reloadQueries,
  renderWithProviders,
} from '../../../testing/render';
import { maria } from '../../../testing/fixtures';
import { CommunityScreen } from './community-screen';

const fetchMock = vi.fn<typeof fetch>();
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const stats = { activeMembers: 1247, discussionsToday: 3, sleepStudiesShared: 12, timezone: 'Europe/London' };
const welcome = {
  id: 'c0ffee00-5eed-4a11-9e1c-000000000001',
  name: 'Welcome to the Sleepweave Community',
  isDirect: false,
  pinned: true,
  memberCount: 1,
  createdAt: minutesAgo(3 * 1440),
  lastMessage: null,
};
const linen = {
  id: '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10',
  name: 'Linen week one',
  isDirect: false,
  pinned: false,
  memberCount: 4,
  createdAt: minutesAgo(600),
  lastMessage: { body: 'a'.repeat(101), createdAt: minutesAgo(5) },
};

/** The screen, and a thread of `name` asked for in the New Thread dialog. */
async function createThread(name: string) {
  renderWithProviders(<CommunityScreen />);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'New Thread' }));
  const dialog = await screen.findByRole('dialog', { name: 'New Thread' });
  await user.type(within(dialog).getByLabelText('Thread Name'), name);
  await user.click(within(dialog).getByRole('button', { name: 'Create Thread' }));
  return { user, dialog };
}

function answer(routes: Record<string, () => Response | Promise<Response>>) {
  fetchMock.mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const route = routes[key];
    if (!route) throw new Error(`unexpected ${key}`);
    return route();
  });
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.sessionStorage.clear();
});

describe('CommunityScreen', () => {
  it('lists threads (pinned badge, preview with ellipsis, members, age) and the stats', async () => {
    answer({
      'GET /api/community/threads': () => jsonResponse(200, [welcome, linen]),
      'GET /api/community/stats': () => jsonResponse(200, stats),
    });
    renderWithProviders(<CommunityScreen />);
    expect(screen.getByText('Loading threads...')).toBeTruthy();
    // on a phone the threads' room is kept while they load (the side cards below jumped away)
    expect(screen.getByText('Loading threads...').closest('.min-h-\\[150dvh\\]')).toBeTruthy();

    const list = await screen.findByRole('list', { name: 'Threads' });
    const [first, second] = within(list).getAllByRole('link');
    expect(first!.textContent).toContain('Welcome to the Sleepweave Community');
    expect(within(first!).getByText('Pinned')).toBeTruthy();
    expect(first!.textContent).toContain('1 member');
    expect(first!.textContent).toContain('3d ago');
    expect(first!.getAttribute('href')).toBe(`/community/thread/${welcome.id}`);
    expect(second!.textContent).toContain(`${'a'.repeat(100)}...`);
    expect(second!.textContent).toContain('4 members');
    expect(second!.textContent).toContain('5m ago');
    expect(within(second!).queryByText('Pinned')).toBeNull();
    // A heading may not sit inside a <span> (phrasing content).
    expect(within(first!).getByRole('heading', { name: 'Welcome to the Sleepweave Community' }).closest('span')).toBeNull();

    expect(await screen.findByText('1,247')).toBeTruthy();
    expect(screen.getByText('Sleep Studies Shared').nextElementSibling?.textContent).toBe('12');
    expect(screen.getByText('Direct messaging coming soon')).toBeTruthy();
  });

  it('keeps the threads and stats on screen when a reload fails', async () => {
    answer({
      'GET /api/community/threads': () => jsonResponse(200, [welcome, linen]),
      'GET /api/community/stats': () => jsonResponse(200, stats),
    });
    const { queryClient } = renderWithProviders(<CommunityScreen />);
    expect(await screen.findByRole('list', { name: 'Threads' })).toBeTruthy();
    expect(await screen.findByText('1,247')).toBeTruthy();

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient);

    expect(screen.getByRole('list', { name: 'Threads' })).toBeTruthy();
    expect(screen.getByText('1,247')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('The stats could not be loaded.')).toBeNull();
  });

  it('says so when there are no threads', async () => {
    answer({
      'GET /api/community/threads': () => jsonResponse(200, []),
      'GET /api/community/stats': () => jsonResponse(200, stats),
    });
    renderWithProviders(<CommunityScreen />);
    expect(await screen.findByText('No threads yet. Create your first thread!')).toBeTruthy();
  });

  it('New Thread: an empty name toasts Thread Name Required and sends nothing', async () => {
    answer({
      'GET /api/community/threads': () => jsonResponse(200, []),
      'GET /api/community/stats': () => jsonResponse(200, stats),
    });
    renderWithProviders(<CommunityScreen />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New Thread' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Thread' });
    await user.type(within(dialog).getByLabelText('Thread Name'), ' \u200B '); // nothing to see is empty too
    await user.click(within(dialog).getByRole('button', { name: 'Create Thread' }));
    expect(await screen.findByText('Thread Name Required')).toBeTruthy();
    // in the toast and next to the field (toasts outside a modal dialog are hidden from screen readers)
    expect(screen.getAllByText('Please enter a name for your thread.')).toHaveLength(2);
    expect(within(dialog).getByLabelText('Thread Name').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    // Cancel, then New Thread again: a fresh start, no error from before
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Thread' })).toBeNull());
    await user.click(screen.getByRole('button', { name: 'New Thread' }));
    const again = await screen.findByRole('dialog', { name: 'New Thread' });
    expect(within(again).queryByText('Please enter a name for your thread.')).toBeNull();
    expect(within(again).getByLabelText('Thread Name').getAttribute('aria-invalid')).not.toBe('true');
    // and its toast has gone with it (it stayed, over the page, after the thread was made)
    await waitFor(() => expect(screen.queryByText('Thread Name Required')).toBeNull());
  });

  it('New Thread: the empty-name toast closes once the thread is made', async () => {
    answer({
      'GET /api/community/threads': () => jsonResponse(200, [welcome]),
      'GET /api/community/stats': () => jsonResponse(200, stats),
      'POST /api/community/thread': () => jsonResponse(201, { ...linen, name: 'Cooling pillows', lastMessage: null, memberCount: 1 }),
    });
    renderWithProviders(<CommunityScreen />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New Thread' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Thread' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Thread' }));
    expect(await screen.findByText('Thread Name Required')).toBeTruthy();
    // another refusal: said by the field, and the empty-name toast goes
    await user.type(within(dialog).getByLabelText('Thread Name'), `e${'\u0301'.repeat(20)}{Enter}`);
    expect(await within(dialog).findByText('Thread name has a character with more than 8 accents or marks on it')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Thread Name Required')).toBeNull());
    await user.clear(within(dialog).getByLabelText('Thread Name'));
    await user.type(within(dialog).getByLabelText('Thread Name'), 'Cooling pillows{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Thread' })).toBeNull());
    await waitFor(() => expect(screen.queryByText('Thread Name Required')).toBeNull());
  });

  it('New Thread: creates, closes and clears, and the list refreshes', async () => {
    let threads = [welcome];
    answer({
      'GET /api/community/threads': () => jsonResponse(200, threads),
      'GET /api/community/stats': () => jsonResponse(200, stats),
      'POST /api/community/thread': () => {
        threads = [welcome, { ...linen, name: 'Cooling pillows', lastMessage: null, memberCount: 1 }];
        return jsonResponse(201, threads[1]);
      },
    });
    const { user } = await createThread('Cooling pillows');

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Cooling pillows')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]?.body))).toEqual({ name: 'Cooling pillows' });

    await user.click(screen.getByRole('button', { name: 'New Thread' }));
    expect((within(await screen.findByRole('dialog')).getByLabelText('Thread Name') as HTMLInputElement).value).toBe('');
  });

  it('New Thread: a failure toasts the spec message, says it in the dialog too, and keeps the name', async () => {
    answer({
      'GET /api/community/threads': () => jsonResponse(200, []),
      'GET /api/community/stats': () => jsonResponse(200, stats),
      'POST /api/community/thread': () => jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' }),
    });
    const { user, dialog } = await createThread('Magnesium?');
    // in the dialog, where a screen reader and the keyboard are while it is open (the toasts outside it are hidden from them)
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to create thread. Please try again.');
    expect((within(dialog).getByLabelText('Thread Name') as HTMLInputElement).value).toBe('Magnesium?');
    // not made: a reload or a closed tab asks first; once the dialog is closed, not
    expect(leavingAsks()).toBe(true);
    // not there when she opens the dialog again after cancelling
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(leavingAsks()).toBe(false);
    await user.click(await screen.findByRole('button', { name: 'New Thread' }));
    const again = await screen.findByRole('dialog', { name: 'New Thread' });
    expect(within(again).queryByRole('alert')).toBeNull();
  });

  it('New Thread: offline, fails at once and says so, the dialog free to close (it stayed on Creating..., Cancel disabled)', async () => {
    answer({
      'GET /api/community/threads': () => jsonResponse(200, []),
      'GET /api/community/stats': () => jsonResponse(200, stats),
      'POST /api/community/thread': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderWithProviders(<CommunityScreen />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New Thread' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Thread' });
    await user.type(within(dialog).getByLabelText('Thread Name'), 'Offline thread');
    act(() => onlineManager.setOnline(false));
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Create Thread' }));
      expect(await within(dialog).findByRole('alert')).toBeTruthy();
      expect((within(dialog).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(false);
      expect((within(dialog).getByLabelText('Thread Name') as HTMLInputElement).value).toBe('Offline thread');
    } finally {
      act(() => onlineManager.setOnline(true));
    }
  });

  it("New Thread: a retry that succeeds closes the failure's toast (it stayed beside the new thread)", async () => {
    let fail = true;
    answer({
      'GET /api/community/threads': () => jsonResponse(200, []),
      'GET /api/community/stats': () => jsonResponse(200, stats),
      'POST /api/community/thread': () =>
        fail
          ? jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' })
          : jsonResponse(201, { ...linen, name: 'Magnesium?', memberCount: 1, lastMessage: null }),
    });
    const { user, dialog } = await createThread('Magnesium?');
    await within(dialog).findByRole('alert');
    expect(screen.getAllByText('Failed to create thread. Please try again.').length).toBeGreaterThan(1);
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Create Thread' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Thread' })).toBeNull());
    await waitFor(() => expect(screen.queryByText('Failed to create thread. Please try again.')).toBeNull());
  });

  it('New Thread: when her session ended, opens again with the name once she is signed in again', async () => {
    const routes = {
      'GET /api/user': () => jsonResponse(200, maria),
      'GET /api/community/threads': () => jsonResponse(200, []),
      'GET /api/community/stats': () => jsonResponse(200, stats),
      'POST /api/community/thread': () => jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' }),
    };
    answer(routes);
    const withSignIn = [
      { path: '/community', element: <CommunityScreen /> },
      { path: '/auth', element: <p>Sign in page</p> },
    ];
    const { router } = renderWithProviders(withSignIn, { path: '/community' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New Thread' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Thread' });
    await user.type(within(dialog).getByLabelText('Thread Name'), 'Cooling pillows');
    await user.click(within(dialog).getByRole('button', { name: 'Create Thread' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    cleanup();

    renderWithProviders(withSignIn, { path: '/community' });
    const again = await screen.findByRole('dialog', { name: 'New Thread' });
    expect((within(again).getByLabelText('Thread Name') as HTMLInputElement).value).toBe('Cooling pillows');
    expect(window.sessionStorage.getItem('sleepweave:draft:new-thread')).toBeNull();
  });

  it('New Thread: too many new threads toasts the server message and keeps the name', async () => {
    const limit = 'You can start up to 10 threads an hour. Please try again later.';
    answer({
      'GET /api/community/threads': () => jsonResponse(200, []),
      'GET /api/community/stats': () => jsonResponse(200, stats),
      'POST /api/community/thread': () => jsonResponse(429, { error: 'too_many_requests', message: limit }),
    });
    renderWithProviders(<CommunityScreen />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New Thread' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Thread' });
    await user.type(within(dialog).getByLabelText('Thread Name'), 'An eleventh thread');
    await user.click(within(dialog).getByRole('button', { name: 'Create Thread' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(limit);
    expect((within(dialog).getByLabelText('Thread Name') as HTMLInputElement).value).toBe('An eleventh thread');
  });

  it('New Thread: a 401 toasts Unauthorized and goes to /auth after half a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answeredAt = 0;
    answer({
      'GET /api/community/threads': () => jsonResponse(200, []),
      'GET /api/community/stats': () => jsonResponse(200, stats),
      'POST /api/community/thread': () => {
        answeredAt = Date.now();
        return jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
      },
    });
    const { router } = renderWithProviders(<CommunityScreen />, { path: '/community' });
    const arrivedAt = arrivalAt(router, '/auth');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'New Thread' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Thread' });
    await user.type(within(dialog).getByLabelText('Thread Name'), 'Hello');
    await user.click(within(dialog).getByRole('button', { name: 'Create Thread' }));
    expect(await screen.findByText('Unauthorized')).toBeTruthy();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(LOGGED_OUT_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(arrivedAt()! - answeredAt).toBeGreaterThanOrEqual(LOGGED_OUT_REDIRECT_MS);
  });

  it('shows an error with Try again when the threads cannot be loaded', async () => {
    answer({
      'GET /api/community/threads': () => jsonResponse(500, { error: 'internal', message: 'down' }),
      'GET /api/community/stats': () => jsonResponse(500, { error: 'internal', message: 'down' }),
    });
    renderWithProviders(<CommunityScreen />);
    expect(await screen.findByText(/The threads could not be loaded/)).toBeTruthy();
    expect(await screen.findByText('The stats could not be loaded.')).toBeTruthy();
  });

  it('loads more threads a page at a time (X-Next-Cursor), then no more button', async () => {
    const older = { ...linen, id: '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a11', name: 'Cotton questions', lastMessage: null, memberCount: 2 };
    const more = deferred<Response>();
    let secondPageFails = true;
    answer({
      'GET /api/community/threads': () => pageResponse([welcome, linen], 'c1'),
      'GET /api/community/threads?cursor=c1': () =>
        secondPageFails ? jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' }) : more.promise,
      'GET /api/community/stats': () => jsonResponse(200, stats),
    });
    const user = userEvent.setup();
    renderWithProviders(<CommunityScreen />);

    await user.click(await screen.findByRole('button', { name: 'Load more threads' }));
    expect((await screen.findByRole('alert')).textContent).toBe('More threads could not be loaded. Please try again.');
    expect(within(screen.getByRole('list', { name: 'Threads' })).getAllByRole('link')).toHaveLength(2);

    secondPageFails = false;
    await user.click(screen.getByRole('button', { name: 'Load more threads' }));
    expect(refusesAction(await screen.findByRole('button', { name: 'Loading more threads...' }))).toBe(true);
    // The linen thread came again (it moved between the pages): shown once.
    more.resolve(pageResponse([linen, older], null));

    await screen.findByText('Cotton questions');
    const names = within(screen.getByRole('list', { name: 'Threads' }))
      .getAllByRole('heading')
      .map((h) => h.textContent);
    expect(names).toEqual(['Welcome to the Sleepweave Community', 'Linen week one', 'Cotton questions']);
    expect(screen.queryByRole('button', { name: /more threads/ })).toBeNull();
  });

  it('shows a thread that moved up between two pages (a new message in it): the pages she has are read again first', async () => {
    const cotton = { ...linen, id: '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a12', name: 'Cotton questions', lastMessage: null, memberCount: 2 };
    let movedUp = false;
    answer({
      // before: welcome, linen | cotton; then a message in cotton: welcome, cotton | linen
      'GET /api/community/threads': () => (movedUp ? pageResponse([welcome, cotton], 'c2') : pageResponse([welcome, linen], 'c1')),
      'GET /api/community/threads?cursor=c1': () => pageResponse([], null), // past linen: cotton is above it now
      'GET /api/community/threads?cursor=c2': () => pageResponse([linen], null),
      'GET /api/community/stats': () => jsonResponse(200, stats),
    });
    const user = userEvent.setup();
    renderWithProviders(<CommunityScreen />);
    await screen.findByText('Linen week one');
    movedUp = true;
    await user.click(screen.getByRole('button', { name: 'Load more threads' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /more threads/ })).toBeNull());
    const names = within(screen.getByRole('list', { name: 'Threads' }))
      .getAllByRole('heading')
      .map((h) => h.textContent);
    expect(names).toEqual(['Welcome to the Sleepweave Community', 'Cotton questions', 'Linen week one']);
  });
});
