// @vitest-environment happy-dom
import type { AdminAuditEntry, AdminUserDetail, AdminUserListItem, User } from '@sleepweave/contracts';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { format } from 'date-fns';
import userEvent from '@testing-library/user-event';
import { Outlet, ScrollRestoration } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userQueryKey } from '../../../lib/auth';
import { maria } from '../../../testing/fixtures';
import { createTestQueryClient, deferred, jsonResponse, pageResponse, renderWithProviders, refusesAction } from '../../../testing/render';
import { AdminScreen } from './admin-screen';
import { AuditScreen } from './audit-screen';

const admin: User = { ...maria, role: 'admin' };
const fetchMock = vi.fn<typeof fetch>();
/** What each admin route answers; `users` gets the query string. */
const routes = {
  stats: vi.fn(async () =>
    jsonResponse(200, { totalUsers: 1204, activeUsers: 312, totalSleepLogs: 20411, totalJournalEntries: 5120, activeDays: 7 }),
  ),
  users: vi.fn(async (_query: string) => pageResponse([ines], null)),
  audit: vi.fn(async (_query: string) => pageResponse([] as AdminAuditEntry[], null)),
  user: vi.fn(async () => jsonResponse(200, inesDetail)),
  export: vi.fn(
    async () =>
      new Response('\uFEFFuser_id\r\n', { status: 200, headers: { 'content-disposition': 'attachment; filename="users-2026-11-22.csv"' } }),
  ),
};

const ines: AdminUserListItem = {
  id: '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f',
  firstName: 'Ines',
  lastName: 'Okafor',
  email: 'ines@example.com',
  dateOfBirth: '1971-06-01',
  age: 55,
  hormonalStage: null,
  role: 'participant',
  createdAt: '2026-10-01T09:00:00.000Z',
  sleepLogCount: 12,
  journalEntryCount: 4,
  compliancePercent: 80,
  study: {
    studyStartDate: '2026-10-01',
    day: 20,
    phase: 'washout',
    phaseName: 'Washout',
    dayInPhase: 6,
    daysInPhase: 14,
    nightsElapsed: 19,
    nightsLogged: 12,
    compliancePercent: 63,
  },
  lastLogDate: '2026-10-15',
  daysSinceLastLog: 5,
  followUp: true,
};
const inesDetail: AdminUserDetail = {
  ...ines,
  // joined at 00:30 on Oct 1 her time (Sep 30 in UTC, and in New York)
  createdAt: '2026-09-30T23:30:00.000Z',
  timezone: 'Europe/London',
  consent: true,
  consentedAt: '2026-10-01T20:00:00.000Z',
  sleepLogs: [
    {
      id: '0b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f',
      date: '2026-10-15',
      sleepwearMaterial: '100% Cotton',
      sleepQuality110: 7,
      fabricComfort: 'Comfortable',
    },
  ],
};

beforeEach(() => {
  fetchMock.mockReset();
  for (const route of Object.values(routes)) route.mockReset(); // back to its implementation above
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/admin/stats') return routes.stats();
    if (url.startsWith('/api/admin/users?')) return routes.users(url.split('?')[1]!);
    if (url.startsWith('/api/admin/audit?')) return routes.audit(url.split('?')[1]!);
    if (url.startsWith('/api/admin/user/')) return routes.user();
    if (url.startsWith('/api/admin/export/')) return routes.export();
    return jsonResponse(404, { error: 'not_found', message: url });
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAdmin(user: User = admin, path = '/admin') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(userQueryKey, user);
  return { ...renderWithProviders(<AdminScreen />, { path, queryClient }), user: userEvent.setup() };
}

const someone = (n: number): AdminUserListItem => ({
  ...ines,
  id: `9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e${String(n).padStart(2, '0')}`,
  firstName: `Person${n}`,
  email: `person${n}@example.com`,
});

describe('/admin', () => {
  it('tells a participant it is not for her, and asks the server nothing', async () => {
    renderAdmin(maria);
    expect(screen.getByRole('heading', { name: 'No access' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home' })).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/admin'))).toEqual([]);
  });

  it('shows the four tiles, the list and the empty detail panel', async () => {
    renderAdmin();
    const tiles = screen.getByRole('region', { name: 'Statistics' });
    expect(await within(tiles).findByText('1,204')).toBeTruthy();
    for (const label of ['Total Users', 'Active Users', 'Sleep Logs', 'Journal Entries'])
      expect(within(tiles).getByText(label)).toBeTruthy();
    expect(within(tiles).getByText('Logged a night or a journal entry in the last 7 days')).toBeTruthy();

    const list = await screen.findByRole('list', { name: 'Users' });
    const row = within(list).getByRole('button');
    expect(row.textContent).toContain('Ines Okafor');
    expect(row.textContent).toContain('ines@example.com');
    expect(row.textContent).toContain('Age 55 · N/A · 12 sleep logs · 4 journal entries');
    expect(row.textContent).toContain('63% of nights logged');
    expect(row.textContent).toContain('Washout · day 6 of 14');
    expect(row.textContent).toContain('2+ nights missed');
    expect(screen.getByText('Select a user to view their details')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Research runs' }).getAttribute('href')).toBe('/admin/research');
    expect(screen.getByRole('link', { name: 'Audit trail' }).getAttribute('href')).toBe('/admin/audit');
  });

  it('says when the figures were read, and Refresh reads the tiles and the list again, not the open detail (an audited read)', async () => {
    const { user } = renderAdmin();
    const list = await screen.findByRole('list', { name: 'Users' });
    await user.click(within(list).getByRole('button'));
    await within(screen.getByRole('region', { name: 'User details' })).findByRole('heading', { name: 'Ines Okafor' });
    const readAt = await screen.findByText(/^Figures as of /);
    // (the minute may turn between the read and this line)
    const minute = (at: Date) => `Figures as of ${format(at, 'MMM d, h:mm a')}`;
    expect([minute(new Date(Date.now() - 60_000)), minute(new Date())]).toContain(readAt.textContent);
    const calls = () => [routes.stats.mock.calls.length, routes.users.mock.calls.length, routes.user.mock.calls.length];
    expect(calls()).toEqual([1, 1, 1]);

    routes.stats.mockImplementationOnce(async () =>
      jsonResponse(200, { totalUsers: 1205, activeUsers: 313, totalSleepLogs: 20412, totalJournalEntries: 5121, activeDays: 7 }),
    );
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    const tiles = screen.getByRole('region', { name: 'Statistics' });
    expect(await within(tiles).findByText('1,205')).toBeTruthy();
    await waitFor(() => expect(calls()).toEqual([2, 2, 1]));
    // the detail says when it was read: the list beside it may be newer now
    expect(within(screen.getByRole('region', { name: 'User details' })).getByText(/^Details as of /)).toBeTruthy();

    // a refresh that fails is said; the figures it had stay
    routes.stats.mockImplementationOnce(async () => jsonResponse(500, { error: 'internal', message: 'down' }));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    const toasts = screen.getByRole('region', { name: /Notifications/ });
    expect(await within(toasts).findByText('The figures could not be refreshed')).toBeTruthy();
    expect(within(toasts).getByText('Something went wrong on our side. Please try again.')).toBeTruthy();
    expect(within(tiles).getByText('1,205')).toBeTruthy();
  });

  it("says 'Loading users...' and then 'No users found'", async () => {
    let answer: (response: Response) => void = () => {};
    routes.users.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    renderAdmin();
    expect(await screen.findByText('Loading users...')).toBeTruthy();
    // the count's live region, there from the start, says it too (a screen reader hears it)
    const count = document.querySelector('[aria-live="polite"]')!;
    answer(pageResponse([], null));
    expect(await screen.findByText('No users found')).toBeTruthy();
    expect(count.isConnected).toBe(true);
    expect(count.textContent).toBe('0 users');
  });

  it('searches on the server once typing pauses, and filters and sorts there', async () => {
    const { user } = renderAdmin();
    await screen.findByRole('list', { name: 'Users' });
    // the count is said in a live region that stays while a search loads (one added with its
    // text is not read): the same element, its text changed
    const count = within(screen.getByRole('region', { name: 'Users' })).getByText('1 user');
    expect(count.getAttribute('aria-live')).toBe('polite');
    routes.users.mockImplementationOnce(async () => pageResponse([], null));
    await user.type(screen.getByLabelText('Search by name or e-mail'), 'okafor');
    await waitFor(() => expect(routes.users).toHaveBeenLastCalledWith(expect.stringContaining('q=okafor')));
    expect(routes.users.mock.calls.filter(([query]) => query.includes('q=o')).length).toBe(1); // not once per letter
    await waitFor(() => expect(count.textContent).toBe('0 users'));
    expect(count.isConnected).toBe(true);
    await user.click(screen.getByLabelText('Missed the last 2+ nights (participants still in the study)'));
    await waitFor(() => expect(routes.users).toHaveBeenLastCalledWith(expect.stringContaining('notLogged=true')));
  });

  it('keeps the search, filters, sort and the user shown in the address: back from another page, all are as she left them', async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, admin);
    const { router } = renderWithProviders(
      [
        { path: '/admin', element: <AdminScreen /> },
        { path: '/admin/audit', element: <p>The audit trail</p> },
      ],
      { path: '/admin', queryClient },
    );
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Users' });
    await user.type(screen.getByLabelText('Search by name or e-mail'), 'okafor');
    await user.click(screen.getByLabelText('Missed the last 2+ nights (participants still in the study)'));
    await user.click(within(screen.getByRole('list', { name: 'Users' })).getByRole('button'));
    await within(screen.getByRole('region', { name: 'User details' })).findByRole('heading', { name: 'Ines Okafor' });
    await waitFor(() => expect(router.state.location.search).toContain('q=okafor'));
    // the user shown in the history entry, not in the address (a link elsewhere cannot open her)
    expect(router.state.location.state).toEqual({ user: ines.id });
    expect(router.state.location.search).not.toContain(ines.id);

    await act(() => router.navigate('/admin/audit'));
    await screen.findByText('The audit trail');
    await act(() => router.navigate(-1));
    await screen.findByRole('list', { name: 'Users' });
    expect(screen.getByLabelText<HTMLInputElement>('Search by name or e-mail').value).toBe('okafor');
    expect(screen.getByLabelText<HTMLInputElement>('Missed the last 2+ nights (participants still in the study)').checked).toBe(true);
    expect(await within(screen.getByRole('region', { name: 'User details' })).findByRole('heading', { name: 'Ines Okafor' })).toBeTruthy();
    expect(routes.users).toHaveBeenLastCalledWith(expect.stringMatching(/(?=.*q=okafor)(?=.*notLogged=true)/));
  });

  it('keeps the page where it was when she opens a user, filters or sorts (the address changes, the page does not)', async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, admin);
    const scrolled = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    try {
      // as the app renders its pages: under the root layout's ScrollRestoration
      renderWithProviders(
        [
          {
            element: (
              <>
                <Outlet />
                <ScrollRestoration />
              </>
            ),
            children: [{ path: '/admin', element: <AdminScreen /> }],
          },
        ],
        { path: '/admin', queryClient },
      );
      const user = userEvent.setup();
      const row = within(await screen.findByRole('list', { name: 'Users' })).getByRole('button');
      scrolled.mockClear();
      await user.click(row);
      await within(screen.getByRole('region', { name: 'User details' })).findByRole('heading', { name: 'Ines Okafor' });
      await user.click(screen.getByLabelText('Missed the last 2+ nights (participants still in the study)'));
      await waitFor(() => expect(routes.users).toHaveBeenLastCalledWith(expect.stringContaining('notLogged=true')));
      expect(scrolled).not.toHaveBeenCalled();
    } finally {
      scrolled.mockRestore();
    }
  });

  it('reads an address it cannot use as the defaults (an old link, a typo), and opens no user named in it', async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, admin);
    renderWithProviders(<AdminScreen />, { path: `/admin?sort=shoe&order=up&phase=moon&user=${ines.id}`, queryClient });
    await screen.findByRole('list', { name: 'Users' });
    expect(routes.users).toHaveBeenLastCalledWith(expect.stringMatching(/^sort=joined&order=desc&limit=50$/));
    // a user named in the address (a link from anywhere) is not opened: that read would be recorded as hers
    expect(screen.getByText('Select a user to view their details')).toBeTruthy();
    expect(routes.user).not.toHaveBeenCalled();
  });

  it('opens her details: profile, activity, study progress and latest nights', async () => {
    const { user } = renderAdmin();
    await user.click(within(await screen.findByRole('list', { name: 'Users' })).getByRole('button'));
    const panel = screen.getByRole('region', { name: 'User details' });
    expect(await within(panel).findByRole('heading', { name: 'Ines Okafor' })).toBeTruthy();
    const text = panel.textContent!;
    for (const part of [
      'Profile Information',
      'Hormonal StageN/A',
      'TimezoneEurope/London',
      'JoinedOct 1, 2026',
      'ConsentProvided',
      'Activity Summary',
      'Sleep Logs12',
      'Journal Entries4',
      'Compliance80%sleep logs per day since joining',
      'Nights logged12 of 19 due (63%)',
      'Oct 15, 2026',
      '100% Cotton · Quality 7/10 · Comfortable',
    ]) {
      expect(text).toContain(part);
    }
    expect(within(panel).getByRole('button', { name: 'Grant admin role' })).toBeTruthy();
  });

  it('on a phone, where the panel is below the list, brings her details into view with the focus; beside the list, leaves the focus on her row', async () => {
    for (const phone of [true, false]) {
      const matchMedia = vi.fn((query: string) => ({ matches: !phone, media: query }) as MediaQueryList);
      vi.stubGlobal('matchMedia', matchMedia);
      const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => {});
      const { user } = renderAdmin();
      const row = within(await screen.findByRole('list', { name: 'Users' })).getByRole('button');
      await user.click(row);
      const panel = screen.getByRole('region', { name: 'User details' });
      await within(panel).findByRole('heading', { name: 'Ines Okafor' });
      expect(matchMedia).toHaveBeenCalledWith('(min-width: 64rem)');
      if (phone) {
        await waitFor(() => expect(document.activeElement).toBe(panel));
        expect(scrolled).toHaveBeenCalledTimes(1);
      } else {
        expect(document.activeElement).toBe(row);
        expect(scrolled).not.toHaveBeenCalled();
      }
      scrolled.mockRestore();
      cleanup();
    }
  });

  it('beside the list, the Tab after her row goes to her details (not through every row below); Back to the list returns to her row', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(min-width: 64rem)', media: query }) as MediaQueryList);
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => {});
    const { user } = renderAdmin();
    const row = within(await screen.findByRole('list', { name: 'Users' })).getAllByRole('button')[0]!;
    row.focus();
    await user.keyboard('{Enter}');
    const panel = screen.getByRole('region', { name: 'User details' });
    await within(panel).findByRole('heading', { name: 'Ines Okafor' });
    expect(document.activeElement).toBe(row);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Go to the details' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(panel);
    await user.click(within(panel).getByRole('button', { name: 'Back to the list' }));
    expect(document.activeElement).toBe(row);
    expect(scrolled).toHaveBeenCalled();
    scrolled.mockRestore();
  });

  it('on a phone, brings her details into view at once when she asks for less motion', async () => {
    for (const still of [false, true]) {
      vi.stubGlobal(
        'matchMedia',
        (query: string) => ({ matches: query.includes('reduced-motion') && still, media: query }) as MediaQueryList,
      );
      const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => {});
      const { user } = renderAdmin();
      await user.click(within(await screen.findByRole('list', { name: 'Users' })).getByRole('button'));
      await waitFor(() => expect(scrolled).toHaveBeenCalledTimes(1));
      expect(scrolled.mock.calls[0]![0]).toMatchObject({ behavior: still ? 'auto' : 'smooth' });
      scrolled.mockRestore();
      cleanup();
    }
  });

  it('says a user deleted since the list was read no longer exists, without a Try again that cannot help', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/admin/stats') return routes.stats();
      if (url.startsWith('/api/admin/users?')) return routes.users(url.split('?')[1]!);
      return jsonResponse(404, { error: 'not_found', message: 'User not found' });
    });
    const { user } = renderAdmin();
    await user.click(within(await screen.findByRole('list', { name: 'Users' })).getByRole('button'));
    const alert = await within(screen.getByRole('region', { name: 'User details' })).findByRole('alert');
    expect(alert.textContent).toContain('This user no longer exists.');
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
    // out of the list (it kept her, '1 user'), and the tiles are read again
    expect(await screen.findByText('No users found')).toBeTruthy();
    await waitFor(() => expect(routes.stats).toHaveBeenCalledTimes(2));
  });

  it('tells an admin stepping down herself of herself', async () => {
    routes.user.mockImplementation(async () => jsonResponse(200, { ...inesDetail, id: admin.id, role: 'admin' }));
    const { user } = renderAdmin();
    await user.click(within(await screen.findByRole('list', { name: 'Users' })).getByRole('button'));
    await user.click(
      await within(screen.getByRole('region', { name: 'User details' })).findByRole('button', { name: 'Revoke admin role' }),
    );
    expect((await screen.findByRole('dialog')).textContent).toContain(
      'You will lose access to the admin pages at once. The change is recorded in the audit trail.',
    );
  });

  it('gives focus back to the role button when its dialog closes, cancelled or done', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url === '/api/admin/stats') return routes.stats();
      if (url.startsWith('/api/admin/users?')) return routes.users(url.split('?')[1]!);
      if (url.startsWith('/api/admin/user/')) return routes.user();
      if (url.endsWith('/role') && init?.method === 'PUT')
        return jsonResponse(200, { message: 'Ines Okafor is now an admin.', role: 'admin' });
      return jsonResponse(404, { error: 'not_found', message: url });
    });
    const { user } = renderAdmin();
    await user.click(within(await screen.findByRole('list', { name: 'Users' })).getByRole('button'));
    const panel = screen.getByRole('region', { name: 'User details' });
    const grant = await within(panel).findByRole('button', { name: 'Grant admin role' });

    await user.click(grant);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(grant);

    await user.click(grant);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Grant admin role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // the same button, now offering the way back, has the focus
    const revoke = await within(panel).findByRole('button', { name: 'Revoke admin role' });
    expect(revoke).toBe(grant);
    expect(document.activeElement).toBe(revoke);
  });

  it('deletes her account for her once her e-mail address is typed; she leaves the list and the panel', async () => {
    const deletes: string[] = [];
    let answer = () => jsonResponse(200, { message: 'The user and all their data have been deleted.' });
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url === '/api/admin/stats') return routes.stats();
      if (url.startsWith('/api/admin/users/') && init?.method === 'DELETE') {
        deletes.push(url);
        return answer();
      }
      if (url.startsWith('/api/admin/users?')) return routes.users(url.split('?')[1]!);
      if (url.startsWith('/api/admin/user/')) return routes.user();
      return jsonResponse(404, { error: 'not_found', message: url });
    });
    const { user } = renderAdmin();
    await user.click(within(await screen.findByRole('list', { name: 'Users' })).getByRole('button'));
    const panel = screen.getByRole('region', { name: 'User details' });
    await user.click(await within(panel).findByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Ines Okafor’s account?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete account' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Type ines@example.com to confirm'), 'ines@example.co');
    expect(confirm.disabled).toBe(true);

    // refused (she is the last admin, say): said in the dialog, which stays
    answer = () =>
      jsonResponse(409, {
        error: 'conflict',
        message: 'This is the last admin: grant the admin role to someone else before deleting this account.',
      });
    await user.type(within(dialog).getByLabelText('Type ines@example.com to confirm'), 'M ');
    expect(confirm.disabled).toBe(false);
    await user.click(confirm);
    expect((await within(dialog).findByRole('alert')).textContent).toContain('This is the last admin');

    answer = () => jsonResponse(200, { message: 'The user and all their data have been deleted.' });
    await user.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletes).toEqual([`/api/admin/users/${ines.id}`, `/api/admin/users/${ines.id}`]);
    expect(await within(panel).findByText('Select a user to view their details')).toBeTruthy();
    expect(await screen.findByText('No users found')).toBeTruthy(); // she was the only one listed
    expect(screen.getAllByText('The user and all their data have been deleted.').length).toBeGreaterThan(0);
    expect(document.activeElement).toBe(panel);
  });

  it('offers no Delete account on her own account (Settings, with her password)', async () => {
    routes.user.mockImplementation(async () => jsonResponse(200, { ...inesDetail, id: admin.id }));
    routes.users.mockImplementation(async () => pageResponse([{ ...ines, id: admin.id }], null));
    const { user } = renderAdmin();
    await user.click(within(await screen.findByRole('list', { name: 'Users' })).getByRole('button'));
    const panel = screen.getByRole('region', { name: 'User details' });
    expect(await within(panel).findByRole('button', { name: 'Grant admin role' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Delete account' })).toBeNull();
  });

  it('loads more users a page at a time (X-Next-Cursor) for the same search and sort, someone met twice shown once', async () => {
    const more = deferred<Response>();
    let secondPageFails = true;
    routes.users.mockImplementation(async (query) => {
      if (!query.includes('cursor=')) return pageResponse([someone(1), someone(2)], 'c1');
      return secondPageFails ? jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' }) : more.promise;
    });
    const { user } = renderAdmin();
    const list = await screen.findByRole('list', { name: 'Users' });
    expect(screen.getByText('2 shown')).toBeTruthy();
    expect(routes.users).toHaveBeenLastCalledWith('sort=joined&order=desc&limit=50');

    await user.click(screen.getByRole('button', { name: 'Load more users' }));
    expect((await screen.findByRole('alert')).textContent).toBe('More users could not be loaded. Please try again.');
    secondPageFails = false;
    await user.click(screen.getByRole('button', { name: 'Load more users' }));
    expect(refusesAction(await screen.findByRole('button', { name: 'Loading more users...' }))).toBe(true);
    expect(routes.users).toHaveBeenLastCalledWith('sort=joined&order=desc&limit=50&cursor=c1');
    // Person2 logged a night between the pages and came again: shown once
    more.resolve(pageResponse([someone(2), someone(3)], null));
    await within(list).findByText('Person3 Okafor');
    expect(
      within(list)
        .getAllByRole('button')
        .map((row) => row.textContent?.match(/Person\d/)?.[0]),
    ).toEqual(['Person1', 'Person2', 'Person3']);
    expect(screen.queryByRole('button', { name: /more users/ })).toBeNull();
    expect(screen.getByText('3 users')).toBeTruthy(); // the last page is in: the count is the whole

    // another filter starts from its own first page
    await user.click(screen.getByLabelText('Missed the last 2+ nights (participants still in the study)'));
    await waitFor(() => expect(routes.users).toHaveBeenLastCalledWith('sort=joined&order=desc&limit=50&notLogged=true'));
  });

  it('reads only the next page in an order that does not move, and the pages shown again first in one that does', async () => {
    routes.users.mockImplementation(async (query) => {
      const page = new URLSearchParams(query).get('cursor');
      if (!page) return pageResponse([someone(1)], 'c1');
      return page === 'c1' ? pageResponse([someone(2)], 'c2') : pageResponse([someone(3)], null);
    });
    const { user } = renderAdmin();
    const list = await screen.findByRole('list', { name: 'Users' });
    const firstPages = () => routes.users.mock.calls.filter(([query]) => !String(query).includes('cursor=')).length;
    for (const expected of ['Person2', 'Person3']) {
      await user.click(screen.getByRole('button', { name: 'Load more users' }));
      await within(list).findByText(`${expected} Okafor`);
    }
    // by when members joined: 3 requests for 3 pages (it was 1 + 2 + 3)
    expect(routes.users).toHaveBeenCalledTimes(3);
    expect(firstPages()).toBe(1);
    cleanup();

    // by compliance, which moves as nights are logged: the first page again before the second
    routes.users.mockClear();
    const again = renderAdmin(admin, '/admin?sort=compliance');
    const sorted = await screen.findByRole('list', { name: 'Users' });
    await again.user.click(screen.getByRole('button', { name: 'Load more users' }));
    await within(sorted).findByText('Person2 Okafor');
    expect(routes.users.mock.calls.map(([query]) => new URLSearchParams(String(query)).get('cursor'))).toEqual([null, null, 'c1']);
  });

  it('says the exports hold everyone, whatever the list is filtered to', async () => {
    renderAdmin();
    const card = await screen.findByRole('region', { name: 'Export Research Data' });
    expect(card.textContent).toContain('Each file holds everyone (every night), whatever the list below is filtered to.');
  });

  it("says 'Export failed. Please try again.' when an export fails", async () => {
    routes.export.mockImplementationOnce(async () => jsonResponse(500, { error: 'internal', message: 'boom' }));
    const { user } = renderAdmin();
    await user.click(screen.getByRole('button', { name: 'Export Sleep Study Data' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Export failed. Please try again.');
    await user.click(screen.getByRole('button', { name: 'Export Users Data' }));
    await waitFor(() => expect(screen.queryByText('Export failed. Please try again.')).toBeNull());
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/export/'))).toEqual([
      '/api/admin/export/sleep',
      '/api/admin/export/users',
    ]);
  });

  it('keeps the keyboard on the export button pressed while it runs; the other waits', async () => {
    let answer: (response: Response) => void = () => {};
    routes.export.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { user } = renderAdmin();
    const pressed = screen.getByRole('button', { name: 'Export Users Data' });
    pressed.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(pressed.getAttribute('aria-busy')).toBe('true'));
    expect(document.activeElement).toBe(pressed);
    expect((pressed as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Export Sleep Study Data' }) as HTMLButtonElement).disabled).toBe(true);
    answer(jsonResponse(500, { error: 'internal', message: 'boom' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Export failed. Please try again.');
  });

  it('says no access when the server refuses (her role was revoked meanwhile)', async () => {
    routes.stats.mockImplementation(async () =>
      jsonResponse(403, { error: 'forbidden', message: 'You do not have permission to do this.' }),
    );
    renderAdmin();
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeTruthy();
    // nor the links to the other admin pages, which would refuse her too
    expect(screen.queryByRole('navigation', { name: 'Admin pages' })).toBeNull();
  });

  it('asks again on the next visit once refused (her role may have been given back meanwhile)', async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, admin);
    routes.stats.mockImplementationOnce(async () =>
      jsonResponse(403, { error: 'forbidden', message: 'You do not have permission to do this.' }),
    );
    renderWithProviders(<AdminScreen />, { path: '/admin', queryClient });
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeTruthy();
    cleanup();
    renderWithProviders(<AdminScreen />, { path: '/admin', queryClient });
    expect(await screen.findByRole('list', { name: 'Users' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'No access' })).toBeNull();
  });

  it('says no access when any part is refused: a search after the tiles had loaded', async () => {
    const refused = async () => jsonResponse(403, { error: 'forbidden', message: 'You do not have permission to do this.' });
    const { user } = renderAdmin();
    await screen.findByRole('list', { name: 'Users' });
    routes.users.mockImplementation(refused);
    await user.type(screen.getByLabelText('Search by name or e-mail'), 'zed');
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeTruthy();
    expect(screen.queryByText(/Failed to load users/)).toBeNull();
  });
});

describe('/admin/audit', () => {
  const entry = (n: number): AdminAuditEntry => ({
    id: `0c2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e${String(n).padStart(2, '0')}`,
    action: 'participant_viewed',
    at: `2026-11-${String(20 - n).padStart(2, '0')}T10:00:00.000Z`,
    actor: { id: admin.id, name: 'Ada Lovelace', email: 'ada@example.com' },
    subject: { id: ines.id, name: `Ines Okafor ${n}`, email: 'ines@example.com' },
    fileName: null,
  });

  it('shows the newest entries and older ones a page at a time (X-Next-Cursor), then no more button', async () => {
    routes.audit.mockImplementation(async (query) =>
      query.includes('cursor=a1') ? pageResponse([entry(3)], null) : pageResponse([entry(1), entry(2)], 'a1'),
    );
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, admin);
    renderWithProviders(<AuditScreen />, { path: '/admin/audit', queryClient });
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3); // the header and two entries
    // on the admin's profile clock (New York), its zone named, not the browser's
    expect(within(table).getAllByRole('row')[1]!.textContent).toContain('Nov 19, 2026, 5:00 AM EST');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show older entries' }));
    await within(table).findByText('Ines Okafor 3');
    expect(routes.audit).toHaveBeenLastCalledWith('limit=50&cursor=a1');
    expect(screen.queryByRole('button', { name: 'Show older entries' })).toBeNull();
  });

  it('names the zip of a research download, in the table and on a phone', async () => {
    const download: AdminAuditEntry = {
      ...entry(1),
      action: 'research_downloaded',
      subject: null,
      fileName: 'sleepweave-research-2026-12-05-0200.zip',
    };
    routes.audit.mockImplementation(async () => pageResponse([download, entry(2)], null));
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, admin);
    renderWithProviders(<AuditScreen />, { path: '/admin/audit', queryClient });
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('Downloaded the research exportsleepweave-research-2026-12-05-0200.zip');
    expect(rows[2]!.textContent).not.toContain('.zip');
    const cards = within(screen.getByRole('list', { name: 'Audit trail, newest first' })).getAllByRole('listitem');
    expect(cards[0]!.textContent).toContain('sleepweave-research-2026-12-05-0200.zip');
  });
});
