// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { dismiss } from '../../../components/ui/toast-store';
import { setUnauthorizedHandler } from '../../../lib/api-client';
import { LOGGED_OUT_REDIRECT_MS } from '../../../lib/logged-out-redirect';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, pageResponse, renderWithProviders } from '../../../testing/render';
import { EXPORT_CONTENTS, SleepExportScreen } from './sleep-export-screen';
import { night } from './sleep-log.fixture';

const fetchMock = vi.fn<typeof fetch>();
let logsAnswer: () => Response | Promise<Response>;
let exportAnswer: (url: URL) => Response | Promise<Response>;
let clicked: { download: string }[];

const file = (name: string) =>
  new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), {
    status: 200,
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${name}"` },
  });
const exportCalls = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/sleep/export'));

beforeEach(() => {
  logsAnswer = () => jsonResponse(200, [night('2026-05-08', { sleepScore: 80 }), night('2026-05-01', { sleepScore: 70 })]);
  exportAnswer = (url) =>
    file(`sleepweave-sleep-${url.searchParams.get('startDate')}-to-${url.searchParams.get('endDate')}.${url.searchParams.get('format')}`);
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(200, maria);
    if (url === '/api/sleep/logs') return logsAnswer();
    if (url.startsWith('/api/sleep/export')) return exportAnswer(new URL(url, 'http://localhost'));
    return jsonResponse(404, { error: 'not_found', message: url });
  });
  vi.stubGlobal('fetch', fetchMock);
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ download: this.download });
  });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/export');
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

async function renderScreen() {
  renderWithProviders(<SleepExportScreen />, { path: '/sleep/export' });
  const form = await screen.findByRole('form', { name: 'Export sleep data' });
  return {
    form,
    start: within(form).getByLabelText('Start Date') as HTMLInputElement,
    end: within(form).getByLabelText('End Date') as HTMLInputElement,
    exportButton: within(form).getByRole('button', { name: 'Export' }),
  };
}

describe('/sleep/export', () => {
  it('offers both formats in the spec’s words and keeps Export disabled until both dates are set', async () => {
    const user = userEvent.setup();
    const { form, start, end, exportButton } = await renderScreen();
    expect(within(form).getByRole('radio', { name: 'Excel (.xlsx) - Detailed data with charts' })).toHaveProperty('checked', true);
    expect(within(form).getByRole('radio', { name: 'PDF Report - Professional summary' })).toHaveProperty('checked', false);
    expect(exportButton).toHaveProperty('disabled', true);
    await user.type(start, '2026-05-01');
    expect(exportButton).toHaveProperty('disabled', true);
    await user.type(end, '2026-05-08');
    expect(exportButton).toHaveProperty('disabled', false);
    await user.clear(start);
    expect(exportButton).toHaveProperty('disabled', true);
  });

  it('lists what the file will hold, for the chosen format', async () => {
    const user = userEvent.setup();
    const { form } = await renderScreen();
    const contents = screen.getByRole('region', { name: 'Export Contents' });
    expect(
      within(contents)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(EXPORT_CONTENTS.xlsx);
    await user.click(within(form).getByRole('radio', { name: 'PDF Report - Professional summary' }));
    expect(
      within(contents)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(EXPORT_CONTENTS.pdf);
  });

  it('downloads the file for her dates and format, under the server’s name', async () => {
    const user = userEvent.setup();
    const { form, exportButton } = await renderScreen();
    expect(within(form).getByText(/You logged 2 nights, from May 01, 2026 to May 08, 2026/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Use all my nights' }));
    await user.click(within(form).getByRole('radio', { name: 'PDF Report - Professional summary' }));
    await user.click(exportButton);
    await waitFor(() => expect(clicked).toEqual([{ download: 'sleepweave-sleep-2026-05-01-to-2026-05-08.pdf' }]));
    expect(exportCalls()).toEqual(['/api/sleep/export?startDate=2026-05-01&endDate=2026-05-08&format=pdf']);
    expect(await within(form).findByText('Downloaded sleepweave-sleep-2026-05-01-to-2026-05-08.pdf')).toBeTruthy();
  });

  it('counts every night she logged, beyond the list’s first page, and offers their whole range', async () => {
    // 100 nights on the first page (the newest), and the study's first night on the next
    const newest = Array.from({ length: 100 }, (_, i) =>
      night(new Date(Date.UTC(2026, 8, 30) - i * 86_400_000).toISOString().slice(0, 10), {}),
    );
    logsAnswer = () => pageResponse(newest, 'c1');
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/user') return jsonResponse(200, maria);
      if (url === '/api/sleep/logs') return logsAnswer();
      if (url === '/api/sleep/logs?limit=366&cursor=c1') return pageResponse([night('2026-05-01', {})], null);
      if (url.startsWith('/api/sleep/export')) return exportAnswer(new URL(url, 'http://localhost'));
      return jsonResponse(404, { error: 'not_found', message: url });
    });
    const user = userEvent.setup();
    const { form, exportButton } = await renderScreen();
    expect(within(form).getByText(/You logged 101 nights, from May 01, 2026 to Sep 30, 2026/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Use all my nights' }));
    await user.click(exportButton);
    await waitFor(() => expect(exportCalls()).toEqual(['/api/sleep/export?startDate=2026-05-01&endDate=2026-09-30&format=xlsx']));
  });

  it('says why before asking the server when the dates are the wrong way round', async () => {
    const user = userEvent.setup();
    const { form, start, end, exportButton } = await renderScreen();
    await user.type(start, '2026-05-08');
    await user.type(end, '2026-05-01');
    await user.click(exportButton);
    const why = within(form).getByText('End Date must be on or after Start Date.');
    expect(end.getAttribute('aria-invalid')).toBe('true');
    // the field at fault has the focus, its message read with it
    expect(document.activeElement).toBe(end);
    expect(end.getAttribute('aria-describedby')).toBe(why.id);
    expect(exportCalls()).toHaveLength(0);
  });

  it('shows the server’s sentence in the screen when the range has no night, and saves no file', async () => {
    exportAnswer = () =>
      jsonResponse(404, {
        error: 'not_found',
        message: 'You have no sleep logged between 2026-04-01 and 2026-04-10. Choose dates with logged nights.',
      });
    const user = userEvent.setup();
    const { form, start, end, exportButton } = await renderScreen();
    await user.type(start, '2026-04-01');
    await user.type(end, '2026-04-10');
    await user.click(exportButton);
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe('You have no sleep logged between 2026-04-01 and 2026-04-10. Choose dates with logged nights.');
    expect(clicked).toEqual([]);
  });

  it('says the export failed when the server fails', async () => {
    exportAnswer = () => jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
    const user = userEvent.setup();
    const { form, exportButton } = await renderScreen();
    await user.click(within(form).getByRole('button', { name: 'Use all my nights' }));
    await user.click(exportButton);
    expect((await within(form).findByRole('alert')).textContent).toBe('Failed to generate your export. Please try again.');
  });

  it('on 401 says she is logged out and goes to sign in after half a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    exportAnswer = () => jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
    // the app's handler of a 401 leaves at once: the export's is the screen's (toast, then 0.5 s)
    const leftAtOnce = vi.fn();
    const remove = setUnauthorizedHandler(leftAtOnce);
    onTestFinished(remove);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderWithProviders(<SleepExportScreen />, { path: '/sleep/export' });
    const form = await screen.findByRole('form', { name: 'Export sleep data' });
    await user.click(within(form).getByRole('button', { name: 'Use all my nights' }));
    await user.click(within(form).getByRole('button', { name: 'Export' }));
    const toasts = screen.getByRole('region', { name: /Notifications/ });
    await waitFor(() => expect(toasts.textContent).toContain('You are logged out. Logging in again...'));
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(leftAtOnce).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(LOGGED_OUT_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(clicked).toEqual([]);
  });

  it('has loading, empty and error states', async () => {
    let release: (r: Response) => void = () => {};
    logsAnswer = () => new Promise((resolve) => (release = resolve));
    renderWithProviders(<SleepExportScreen />, { path: '/sleep/export' });
    expect(await screen.findByText('Loading your sleep logs...')).toBeTruthy();
    release(jsonResponse(200, []));
    expect(await screen.findByRole('heading', { name: 'No Sleep Data Yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log Sleep' }).getAttribute('href')).toBe('/sleep/log');
    cleanup();

    logsAnswer = () => jsonResponse(500, { error: 'internal', message: 'x' });
    renderWithProviders(<SleepExportScreen />, { path: '/sleep/export' });
    expect(await screen.findByRole('heading', { name: 'Failed to fetch sleep logs' }, { timeout: 5_000 })).toBeTruthy();
  });
});
