// @vitest-environment happy-dom
import { addDays, currentNight, lastEndedNight, type SleepLog } from '@sleepweave/contracts';
import { act, cleanup, screen, within } from '@testing-library/react';
import { format, parseISO } from 'date-fns';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, reloadQueries, renderWithProviders } from '../../../testing/render';
import { nightName } from './nights';
import { WeeklyReportScreen } from './weekly-report-screen';
import { night } from './sleep-log.fixture';

const fetchMock = vi.fn<typeof fetch>();
const zone = 'Europe/London';
// the last night that has ended, and tonight's, which she has not slept yet (04:00 rule)
const lastNight = lastEndedNight(zone, new Date());
const tonight = currentNight(zone, new Date());
const userId = '6f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a1';

const profile = {
  id: userId,
  email: 'maria@example.com',
  firstName: 'Maria',
  lastName: 'Lopez',
  profileImageUrl: null,
  dateOfBirth: '1970-05-14',
  timezone: zone,
  hormonalStage: 'Menopause',
  role: 'participant',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  studyStartDate: addDays(lastNight, -30),
};

function serve(logs: SleepLog[]) {
  fetchMock.mockImplementation(async (input) => jsonResponse(200, String(input) === '/api/auth/user' ? profile : logs));
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const emptyCard = () => screen.getByRole('heading', { name: 'No Sleep Data Available' }).parentElement!;

describe('WeeklyReportScreen', () => {
  it('reports the 7 nights ending with the last that has ended (tonight is not slept yet)', async () => {
    serve([night(lastNight, { sleepScore: 78 }), night(addDays(lastNight, -7), { sleepScore: 60 })]);
    renderWithProviders(<WeeklyReportScreen />, { path: '/sleep/weekly-report' });

    expect(await screen.findByRole('heading', { name: 'Weekly Summary' })).toBeTruthy();
    expect(screen.getByText('Your sleep patterns over the last 7 days')).toBeTruthy();
    const from = format(parseISO(addDays(lastNight, -6)), 'MMM dd');
    const to = format(parseISO(lastNight), 'MMM dd, yyyy');
    expect(screen.getByText(`${from} – ${to}`)).toBeTruthy();
    expect(screen.getByText('Days logged').nextSibling?.textContent).toBe('1');
  });

  it('left open past 04:00, moves on to the seven nights ending with the one that has ended since', async () => {
    // Thursday 10 December, 03:58 in London (only the date is faked): last night is Tue 8 → Wed 9
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-10T03:58:00Z') });
    try {
      serve([night('2026-12-07', { sleepScore: 70 }), night('2026-12-08', { sleepScore: 75 })]);
      renderWithProviders(<WeeklyReportScreen />, { path: '/sleep/weekly-report' });
      expect(await screen.findByText('Dec 02 – Dec 08, 2026')).toBeTruthy();
      vi.setSystemTime(new Date('2026-12-10T04:01:00Z'));
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      expect(await screen.findByText('Dec 03 – Dec 09, 2026')).toBeTruthy();
      expect(screen.getByText('Days logged').nextSibling?.textContent).toBe('2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends with tonight when she has logged it ahead (her first night, on the day she joined)', async () => {
    serve([night(tonight, { sleepScore: 90 }), night(addDays(tonight, -7), { sleepScore: 60 })]);
    renderWithProviders(<WeeklyReportScreen />, { path: '/sleep/weekly-report' });
    expect(await screen.findByRole('heading', { name: 'Weekly Summary' })).toBeTruthy();
    const from = format(parseISO(addDays(tonight, -6)), 'MMM dd');
    expect(screen.getByText(`${from} – ${format(parseISO(tonight), 'MMM dd, yyyy')}`)).toBeTruthy();
    expect(screen.getByText('Days logged').nextSibling?.textContent).toBe('1');
  });

  it("ends with tomorrow's night when she has logged it ahead (the log takes it): no night she saved is left out", async () => {
    const tomorrow = addDays(tonight, 1);
    serve([night(tonight, { sleepScore: 90 }), night(tomorrow, { sleepScore: 71 })]);
    renderWithProviders(<WeeklyReportScreen />, { path: '/sleep/weekly-report' });
    expect(await screen.findByRole('heading', { name: 'Weekly Summary' })).toBeTruthy();
    expect(
      screen.getByText(`${format(parseISO(addDays(tomorrow, -6)), 'MMM dd')} – ${format(parseISO(tomorrow), 'MMM dd, yyyy')}`),
    ).toBeTruthy();
    expect(screen.getByText('Days logged').nextSibling?.textContent).toBe('2');
  });

  it("invites a newcomer to 'Log Your First Sleep'", async () => {
    serve([]);
    renderWithProviders(<WeeklyReportScreen />, { path: '/sleep/weekly-report' });

    expect(await screen.findByRole('heading', { name: 'No Sleep Data Available' })).toBeTruthy();
    expect(screen.getByText('Start logging your sleep data to see your weekly trends and patterns.')).toBeTruthy();
    expect(within(emptyCard()).getByRole('link', { name: 'Log Your First Sleep' }).getAttribute('href')).toBe('/sleep/log');
    // no week of dates above it (before her first night they were days before her study)
    expect(screen.queryByText(/^[A-Z][a-z]{2} \d{2} – [A-Z][a-z]{2} \d{2}, \d{4}$/)).toBeNull();
  });

  it('says there is nothing in the last 7 days when her nights are older, and links to the whole study', async () => {
    const older = addDays(lastNight, -9);
    serve([night(older, { sleepScore: 70, studyDay: 22 })]);
    renderWithProviders(<WeeklyReportScreen />, { path: '/sleep/weekly-report' });

    const heading = await screen.findByRole('heading', { name: 'Nothing in the last 7 days' });
    const card = heading.parentElement!;
    expect(screen.queryByRole('heading', { name: 'No Sleep Data Available' })).toBeNull();
    expect(card.textContent).toContain(nightName(older).replace('Night of', 'night of'));
    expect(within(card).getByRole('link', { name: 'See the whole study' }).getAttribute('href')).toBe('/sleep/charts?view=study');
    expect(screen.getByRole('link', { name: 'Log Sleep Data' }).getAttribute('href')).toBe('/sleep/log');
    expect(screen.queryByRole('link', { name: 'Log Your First Sleep' })).toBeNull();
    // which 7 days (it said "over the last 7 days" without them)
    const shown = (date: string, pattern: string) => format(parseISO(date), pattern);
    expect(screen.getByText(`${shown(addDays(lastNight, -6), 'MMM dd')} – ${shown(lastNight, 'MMM dd, yyyy')}`)).toBeTruthy();
  });

  it('keeps the report when a reload of her logs fails', async () => {
    serve([night(lastNight, { sleepScore: 78 })]);
    const { queryClient } = renderWithProviders(<WeeklyReportScreen />, { path: '/sleep/weekly-report' });
    expect(await screen.findByRole('heading', { name: 'Weekly Summary' })).toBeTruthy();

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient, ['sleep', 'logs']);

    expect(screen.getByRole('heading', { name: 'Weekly Summary' })).toBeTruthy();
    expect(screen.queryByText('Failed to fetch sleep logs')).toBeNull();
  });
});
