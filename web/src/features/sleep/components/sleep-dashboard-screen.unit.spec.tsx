// @vitest-environment happy-dom
import type { SleepLog } from '@sleepweave/contracts';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, pageResponse, reloadQueries, renderWithProviders, refusesAction } from '../../../testing/render';
import { SleepDashboardScreen } from './sleep-dashboard-screen';
import { night } from './sleep-log.fixture';

const fetchMock = vi.fn<typeof fetch>();
const profile = (timezone: string) => ({
  id: '6f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a1',
  email: 'maria@example.com',
  firstName: 'Maria',
  lastName: 'Lopez',
  profileImageUrl: null,
  dateOfBirth: '1970-05-14',
  timezone,
  hormonalStage: 'Menopause',
  role: 'participant',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});
/** GET /api/user answers her profile, GET /api/sleep/logs the nights. */
function serve(logs: SleepLog[], timezone = 'America/New_York') {
  fetchMock.mockImplementation(async (input) => jsonResponse(200, String(input) === '/api/user' ? profile(timezone) : logs));
}
beforeEach(() => {
  // what a screen kept with its history entry (the groups opened) belongs to one test
  window.sessionStorage.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SleepDashboardScreen', () => {
  it('shows the three stat cards and every field of each night', async () => {
    serve([
      night('2026-05-06', {
        studyDay: 3,
        sleepScore: 81,
        totalSleepMinutes: 452,
        sleepEfficiency: 91.5,
        restingHr: 56,
        avgHrv: 41.5,
        morningMood: 'Refreshed',
        fabricComfort: 'Comfortable',
        dreamRecall: true,
        heatWave: false,
        comments: 'Cool night',
        sleepwearMaterial: '100% Polyester',
      }),
      night('2026-05-05', { studyDay: 2, sleepScore: 76 }),
      night('2026-05-04', {}),
    ]);
    renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });

    const summary = await screen.findByRole('region', { name: 'Summary' });
    expect(within(summary).getByText('Total Entries').nextSibling?.textContent).toBe('3');
    expect(within(summary).getByText('Latest Entry').nextSibling?.textContent).toBe('May 06');
    expect(within(summary).getByText('Avg Sleep Score').nextSibling?.textContent).toBe('79');

    const cards = screen.getAllByRole('listitem');
    const first = within(cards[0]!);
    expect(first.getByRole('heading', { name: 'Wednesday, May 6, 2026' })).toBeTruthy();
    expect(first.getByText(/Logged May 7, 2026 · Night 3 · Polyester · 100% Polyester/)).toBeTruthy();
    expect(first.getByText('Sleep score 81')).toBeTruthy();
    for (const [label, value] of [
      ['Total sleep', '7h 32m'],
      ['Efficiency', '91.5%'],
      ['Resting HR', '56 bpm'],
      ['Avg HRV', '41.5 ms'],
      ['Morning mood', 'Refreshed'],
      ['Fabric comfort', 'Comfortable'],
      ['Dream recall', 'Yes'],
      ['Heat wave', 'No'],
    ]) {
      expect(first.getByText(label!).nextSibling?.textContent).toBe(value);
    }
    expect(first.getByText('Cool night')).toBeTruthy();
    expect(first.getByRole('link', { name: /Edit/ }).getAttribute('href')).toBe(
      '/sleep/log?edit=0d7b7d8e-58b4-4b8f-9a55-3f0c7a1e2b06&date=2026-05-06',
    );
    // A night without values: durations show 0m, the rest --.
    const last = within(cards[2]!);
    expect(last.getByText('Total sleep').nextSibling?.textContent).toBe('0m');
    expect(last.getByText('Sleep score --')).toBeTruthy();
    expect(last.getByText('Dream recall').nextSibling?.textContent).toBe('--');
  });

  it("dates 'Logged' on her profile's clock, not the browser's", async () => {
    // 03:30 UTC on May 6 is still the evening of May 5 in Los Angeles.
    serve([night('2026-05-05', { createdAt: '2026-05-06T03:30:00.000Z' })], 'America/Los_Angeles');
    renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });
    expect(await screen.findByText(/Logged May 5, 2026 · Night 1/)).toBeTruthy();
  });

  it('keeps her nights on screen when a reload of the list fails', async () => {
    serve([night('2026-05-06', { sleepScore: 81 })]);
    const { queryClient } = renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });
    expect(await screen.findByText('Sleep score 81')).toBeTruthy();

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient, ['sleep', 'logs']);

    expect(screen.getByText('Sleep score 81')).toBeTruthy();
    expect(screen.queryByText('Failed to fetch sleep logs')).toBeNull();
  });

  it('invites her to log when there is nothing yet', async () => {
    serve([]);
    renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });
    expect(await screen.findByRole('heading', { name: 'No Sleep Data Yet' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Log Sleep' }).map((a) => a.getAttribute('href'))).toContain('/sleep/log');
  });

  it('says Failed to fetch sleep logs when the list cannot be loaded', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' }));
    renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });
    expect(await screen.findByText('Failed to fetch sleep logs', {}, { timeout: 4000 })).toBeTruthy();
  });

  it('lists her nights by phase, the newest phase open and first, older phases folded', async () => {
    serve([
      night('2026-05-16', { studyDay: 16, phase: 'washout', sleepScore: 80 }),
      night('2026-05-15', { studyDay: 15, phase: 'washout', sleepScore: 70 }),
      night('2026-05-14', { studyDay: 14, phase: 'polyester', sleepScore: 60 }),
    ]);
    const { container } = renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });
    await screen.findByRole('region', { name: 'Summary' });
    const groups = Array.from(container.querySelectorAll('details'));
    expect(groups.map((group) => [group.querySelector('summary')?.textContent, group.open])).toEqual([
      ['Washout2 nights · avg score 75', true],
      ['Polyester1 night · avg score 60', false],
    ]);
    expect(
      within(groups[0]!)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Saturday, May 16, 2026', 'Friday, May 15, 2026']);
  });

  it("shows a phase's newest 7 nights, and the rest on request", async () => {
    serve(
      Array.from({ length: 9 }, (_, i) =>
        night(`2026-05-${String(9 - i).padStart(2, '0')}`, { studyDay: 9 - i, phase: 'polyester', sleepScore: 70 + i }),
      ),
    );
    renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });
    const more = await screen.findByRole('button', { name: 'Show 2 older nights of polyester' });
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(7);
    await userEvent.setup().click(more);
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(9);
    expect(screen.queryByRole('button', { name: /older night/ })).toBeNull();
  });

  it("is as she left it when she comes Back (from a night's Edit): a phase she opened, its older nights shown", async () => {
    serve([
      night('2026-05-16', { studyDay: 16, phase: 'washout', sleepScore: 80 }),
      ...Array.from({ length: 9 }, (_, i) =>
        night(`2026-05-${String(14 - i).padStart(2, '0')}`, { studyDay: 14 - i, phase: 'polyester', sleepScore: 70 + i }),
      ),
    ]);
    const { container, router } = renderWithProviders(
      [
        { path: '/sleep/dashboard', element: <SleepDashboardScreen /> },
        { path: '/sleep/log', element: <p>The sleep log</p> },
      ],
      { path: '/sleep/dashboard' },
    );
    await screen.findByRole('region', { name: 'Summary' });
    const polyester = () => Array.from(container.querySelectorAll('details'))[1]!;
    expect(polyester().open).toBe(false);
    const user = userEvent.setup();
    await user.click(polyester().querySelector('summary')!);
    await waitFor(() => expect(polyester().open).toBe(true));
    await user.click(within(polyester()).getByText('Show 2 older nights of polyester'));
    await act(() => router.navigate('/sleep/log?edit=x'));
    await screen.findByText('The sleep log');
    await act(() => router.navigate(-1));
    await screen.findByRole('region', { name: 'Summary' });
    expect(polyester().open).toBe(true);
    expect(polyester().querySelectorAll('h3')).toHaveLength(9);
    // a new visit (the menu, a link) starts afresh
    await act(() => router.navigate('/sleep/log'));
    await screen.findByText('The sleep log');
    await act(() => router.navigate('/sleep/dashboard'));
    await screen.findByRole('region', { name: 'Summary' });
    expect(polyester().open).toBe(false);
  });

  it('says a stat of every night is unavailable when the older nights cannot be read, and still lists the first page', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/user') return jsonResponse(200, profile('America/New_York'));
      if (url === '/api/sleep/logs') return pageResponse([night('2026-05-16', { studyDay: 16, phase: 'washout', sleepScore: 80 })], 'c1');
      return jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
    });
    renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });
    const summary = await screen.findByRole('region', { name: 'Summary' });
    await waitFor(() => expect(within(summary).getByText('Total Entries').nextSibling?.textContent).toBe('Unavailable'));
    expect(within(summary).getByText('Avg Sleep Score').nextSibling?.textContent).toBe('Unavailable');
    expect(within(summary).getByText('Latest Entry').nextSibling?.textContent).toBe('May 16');
    expect(screen.getByRole('heading', { name: 'Saturday, May 16, 2026' })).toBeTruthy();
  });

  it('loads older nights a page at a time (X-Next-Cursor) into their phases, then no more button', async () => {
    const older = deferred<Response>();
    let secondPageFails = true;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/user') return jsonResponse(200, profile('America/New_York'));
      if (url === '/api/sleep/logs')
        return pageResponse(
          [
            night('2026-05-16', { studyDay: 16, phase: 'washout', sleepScore: 80 }),
            night('2026-05-15', { studyDay: 15, phase: 'washout', sleepScore: 70 }),
            night('2026-05-14', { studyDay: 14, phase: 'polyester', sleepScore: 60 }),
          ],
          'c1',
        );
      if (url === '/api/sleep/logs?cursor=c1') {
        if (secondPageFails) return jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
        return older.promise;
      }
      // every night, for the stat cards (the rest a year at a time)
      if (url === '/api/sleep/logs?limit=366&cursor=c1') return pageResponse(olderNights, null);
      throw new Error(`unexpected ${url}`);
    });
    const olderNights = [
      night('2026-05-13', { studyDay: 13, phase: 'polyester', sleepScore: 70 }),
      night('2026-05-12', { studyDay: 12, phase: 'polyester', sleepScore: 80 }),
    ];
    const user = userEvent.setup();
    const { container } = renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });

    // The stat cards count all five nights while the list shows its first page's three.
    const summary = await screen.findByRole('region', { name: 'Summary' });
    await waitFor(() => expect(within(summary).getByText('Total Entries').nextSibling?.textContent).toBe('5'));
    expect(within(summary).getByText('Avg Sleep Score').nextSibling?.textContent).toBe('72');
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(3);

    // The first try fails: she is told, keeps her nights, and can try again.
    await user.click(await screen.findByRole('button', { name: 'Load older nights' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Older nights could not be loaded. Please try again.');
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(3);

    secondPageFails = false;
    await user.click(screen.getByRole('button', { name: 'Load older nights' }));
    expect(refusesAction(await screen.findByRole('button', { name: 'Loading older nights...' }))).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
    older.resolve(pageResponse(olderNights, null));

    await screen.findByRole('heading', { name: 'Tuesday, May 12, 2026' });
    expect(screen.queryByRole('button', { name: /Load older nights|Loading older nights/ })).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Summary' })).getByText('Total Entries').nextSibling?.textContent).toBe('5');
    // The older page's nights join their phase (one Polyester group, newest first), not a group of their own.
    const groups = Array.from(container.querySelectorAll('details'));
    expect(groups.map((group) => group.querySelector('summary')?.textContent)).toEqual([
      'Washout2 nights · avg score 75',
      'Polyester3 nights · avg score 70',
    ]);
    expect(
      within(groups[1]!)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Thursday, May 14, 2026', 'Wednesday, May 13, 2026', 'Tuesday, May 12, 2026']);
  });
});
