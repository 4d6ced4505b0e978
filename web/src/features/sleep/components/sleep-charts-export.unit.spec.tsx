// @vitest-environment happy-dom
import { SLEEP_CHART_METRICS } from '@sleepweave/contracts';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismiss } from '../../../components/ui/toast-store';
import { LOGGED_OUT_REDIRECT_MS } from '../../../lib/logged-out-redirect';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { METRICS } from './metrics';
import { SleepChartsScreen } from './sleep-charts-screen';
import { night } from './sleep-log.fixture';

const fetchMock = vi.fn<typeof fetch>();
let exportAnswer: () => Response;
let clicked: string[];

// Nine nights, one missed: the charts show the last 7 entries, May 03 to May 10.
const logs = [
  '2026-05-10',
  '2026-05-09',
  '2026-05-08',
  '2026-05-06',
  '2026-05-05',
  '2026-05-04',
  '2026-05-03',
  '2026-05-02',
  '2026-05-01',
].map((date, i) => night(date, { sleepScore: 70 + i, studyDay: 10 - i }));

beforeEach(() => {
  exportAnswer = () =>
    new Response(new Blob(['PK']), {
      status: 200,
      headers: { 'content-disposition': 'attachment; filename="sleepweave-sleep-2026-05-03-to-2026-05-10.xlsx"' },
    });
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(200, maria);
    if (url === '/api/sleep/logs') return jsonResponse(200, logs);
    if (url.startsWith('/api/sleep/export')) return exportAnswer();
    return jsonResponse(404, { error: 'not_found', message: url });
  });
  vi.stubGlobal('fetch', fetchMock);
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.download);
  });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/x');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.useFakeTimers();
  dismiss();
  vi.runAllTimers();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const exportUrls = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/sleep/export'));

describe('the charts page’s Export to Excel and Generate PDF Report', () => {
  it('export the dates the charts show', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SleepChartsScreen />, { path: '/sleep/charts' });
    const region = await screen.findByRole('region', { name: 'Take these charts with you' });
    expect(region.textContent).toContain('May 03, 2026 – May 10, 2026');
    await user.click(within(region).getByRole('button', { name: 'Export to Excel' }));
    await waitFor(() => expect(clicked).toEqual(['sleepweave-sleep-2026-05-03-to-2026-05-10.xlsx']));
    await user.click(within(region).getByRole('button', { name: 'Generate PDF Report' }));
    await waitFor(() =>
      expect(exportUrls()).toEqual([
        '/api/sleep/export?startDate=2026-05-03&endDate=2026-05-10&format=xlsx',
        '/api/sleep/export?startDate=2026-05-03&endDate=2026-05-10&format=pdf',
      ]),
    );
    expect(within(region).getByRole('link', { name: 'Choose other dates' }).getAttribute('href')).toBe('/sleep/export');
  });

  it('export the latest year of them when her last 7 entries span more than an export may (366 days)', async () => {
    const sparse = ['2027-05-10', '2027-05-09', '2027-05-08', '2027-05-07', '2027-05-06', '2027-05-05', '2026-01-01'];
    const defaultFetch = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input) === '/api/sleep/logs'
        ? jsonResponse(
            200,
            sparse.map((date) => night(date, { sleepScore: 75 })),
          )
        : defaultFetch(input, init),
    );
    const user = userEvent.setup();
    renderWithProviders(<SleepChartsScreen />, { path: '/sleep/charts' });
    const region = await screen.findByRole('region', { name: 'Take these charts with you' });
    expect(region.textContent).toContain('May 10, 2026 – May 10, 2027');
    await user.click(within(region).getByRole('button', { name: 'Export to Excel' }));
    await waitFor(() => expect(exportUrls()).toEqual(['/api/sleep/export?startDate=2026-05-10&endDate=2027-05-10&format=xlsx']));
  });

  it('say why when the export fails', async () => {
    exportAnswer = () =>
      jsonResponse(503, { error: 'unavailable', message: 'Sleepweave is temporarily unavailable. Please try again in a moment.' });
    const user = userEvent.setup();
    renderWithProviders(<SleepChartsScreen />, { path: '/sleep/charts' });
    const region = await screen.findByRole('region', { name: 'Take these charts with you' });
    await user.click(within(region).getByRole('button', { name: 'Generate PDF Report' }));
    const toasts = screen.getByRole('region', { name: /Notifications/ });
    await waitFor(() => expect(toasts.textContent).toContain('Sleepweave is temporarily unavailable. Please try again in a moment.'));
    expect(clicked).toEqual([]);
  });

  it('on 401 say she is logged out, with no export failure, and go to sign in after half a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    exportAnswer = () => jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderWithProviders(<SleepChartsScreen />, { path: '/sleep/charts' });
    const region = await screen.findByRole('region', { name: 'Take these charts with you' });
    await user.click(within(region).getByRole('button', { name: 'Export to Excel' }));
    const toasts = screen.getByRole('region', { name: /Notifications/ });
    await waitFor(() => expect(toasts.textContent).toContain('You are logged out. Logging in again...'));
    expect(toasts.querySelectorAll('li')).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/sleep/charts');
    await act(() => vi.advanceTimersByTimeAsync(LOGGED_OUT_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(toasts.textContent).not.toContain('Export Failed');
    expect(clicked).toEqual([]);
  });

  it('draw the exported charts in the web charts’ colours', () => {
    for (const metric of SLEEP_CHART_METRICS) expect(METRICS[metric.key].color).toBe(metric.color);
  });
});
