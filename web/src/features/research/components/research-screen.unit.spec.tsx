import { TEMPORARILY_UNAVAILABLE_MESSAGE, type ResearchEffect, type ResearchRun, type User } from '@sleepweave/contracts';
// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismiss } from '../../../components/ui/toast-store';
import { LOGGED_OUT_REDIRECT_MS } from '../../../lib/logged-out-redirect';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, pageResponse, renderWithProviders, refusesAction } from '../../../testing/render';
import { RUN_POLL_MS } from '../api/get-research-run';
import { NO_ACCESS_TEXT } from '../../../components/no-access';
import { NO_ZIP_KEPT, ResearchScreen } from './research-screen';
import { RunsTable } from './runs-table';

const NO_RUNS_TEXT = 'The first one runs at 02:00 UTC, or press Run now.';

const ada: User = {
  ...maria,
  id: '7a2d2c6f-3b48-4c72-8b64-9a2e0c4b1b02',
  email: 'ada@example.com',
  firstName: 'Ada',
  role: 'admin',
  timezone: 'Europe/London',
};

const effect = (metric: string, label: string, values: Partial<ResearchEffect> = {}): ResearchEffect => ({
  metric,
  label,
  nPairs: 21,
  dz: -0.42,
  dzLow: -0.86,
  dzHigh: 0.02,
  pHolm: 0.12,
  note: null,
  ...values,
});

const primary = [
  effect('sleepScore', 'Sleep score', { dz: 0.51, dzLow: 0.05, dzHigh: 0.97, pHolm: 0.0004, nPairs: 22 }),
  effect('deepMinutes', 'Deep sleep (min)'),
  effect('restingHr', 'Resting heart rate (bpm)', { dz: -0.1, dzLow: -0.5, dzHigh: 0.3, pHolm: 1 }),
  effect('avgSpo2', 'Average SpO2 (%)', {
    dz: null,
    dzLow: null,
    dzHigh: null,
    pHolm: null,
    nPairs: 2,
    note: 'Fewer than 3 participants have both phases.',
  }),
  effect('avgHrv', 'HRV (ms)', {
    dz: null,
    dzLow: null,
    dzHigh: null,
    pHolm: null,
    nPairs: 2,
    note: 'Fewer than 3 participants have both phases.',
  }),
];

const run = (id: string, values: Partial<ResearchRun> = {}): ResearchRun => ({
  id,
  trigger: 'schedule',
  status: 'finished',
  requestedAt: '2026-11-22T02:00:00.000Z',
  startedAt: '2026-11-22T02:00:01.000Z',
  finishedAt: '2026-11-22T02:00:13.400Z',
  durationMs: 12_400,
  failure: null,
  fileName: 'sleepweave-research-2026-11-22.zip',
  sizeBytes: 1_258_291,
  downloadable: true,
  fileRemoved: false,
  summary: {
    participantsIncluded: 24,
    participantsExcluded: 3,
    nights: 4180,
    qaHeadline: '12 of 4,180 nights flagged; 3 participants excluded (too few nights in a phase)',
    primary,
  },
  ...values,
});

const nightly = run('0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f01');
const failed = run('0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f02', {
  trigger: 'admin',
  status: 'failed',
  requestedAt: '2026-11-21T15:30:00.000Z',
  finishedAt: '2026-11-21T15:30:02.000Z',
  durationMs: 2_000,
  failure: 'The study database did not answer.',
  fileName: null,
  sizeBytes: null,
  downloadable: false,
  fileRemoved: false,
  summary: null,
});
const oldRun = run('0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f03', {
  requestedAt: '2026-10-01T02:00:00.000Z',
  downloadable: false,
  fileRemoved: false,
  durationMs: 65_000,
});
const NEW_ID = '0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f10';

const fetchMock = vi.fn<typeof fetch>();
let user: User;
let list: () => Response | Promise<Response>;
let schedule: () => Response | Promise<Response>;
let routes: Record<string, () => Response | Promise<Response>>;
let clicked: string[];

beforeEach(() => {
  user = ada;
  list = () => jsonResponse(200, [nightly, failed, oldRun]);
  schedule = () => jsonResponse(200, { nightly: { time: '02:00', timeZone: 'UTC' } });
  routes = {};
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const key = `${init?.method ?? 'GET'} ${url}`;
    if (url === '/api/user') return jsonResponse(200, user);
    if (key === 'GET /api/admin/research/runs') return list();
    if (key === 'GET /api/admin/research/schedule') return schedule();
    if (key.startsWith('GET /api/admin/research/runs?cursor=')) return routes['GET /api/admin/research/runs?cursor=']!();
    const route = routes[key];
    if (route) return route();
    return jsonResponse(404, { error: 'not_found', message: `No route ${key}` });
  });
  vi.stubGlobal('fetch', fetchMock);
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.download);
  });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/zip');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  // happy-dom lays nothing out: give the chart's container a size so recharts draws.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 720, 240));
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

const calls = (key: string) => fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}` === key);
const zip = (name?: string) =>
  new Response(new Blob(['PK']), { status: 200, headers: name ? { 'content-disposition': `attachment; filename="${name}"` } : {} });

async function newestToast(title: string) {
  return waitFor(() => {
    // Each toast is portalled into the list as it opens: the newest is the last.
    const toast = Array.from(screen.getByRole('region', { name: /Notifications/ }).querySelectorAll('li')).at(-1);
    expect(toast?.textContent).toContain(title);
    return within(toast!);
  });
}

const findRunsTable = () => screen.findByRole('table', { name: 'Research runs, newest first' });

function renderScreen() {
  return renderWithProviders(<ResearchScreen />, { path: '/admin/research' });
}

describe('ResearchScreen', () => {
  it('tells a participant the page is for study administrators, and asks the server nothing', async () => {
    user = maria;
    renderScreen();

    expect(await screen.findByText(NO_ACCESS_TEXT)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Research Runs' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Run now' })).toBeNull();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/admin'))).toHaveLength(0);
  });

  it('says the same when the server refuses an admin (403)', async () => {
    list = () => jsonResponse(403, { error: 'forbidden', message: 'Admins only.' });
    renderScreen();

    expect(await screen.findByText(NO_ACCESS_TEXT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Run now' })).toBeNull();
  });

  it('shows the loading text, then says there are no runs yet', async () => {
    let answer: (response: Response) => void = () => {};
    list = () => new Promise<Response>((resolve) => (answer = resolve));
    renderScreen();

    expect(await screen.findByText('Loading research runs...')).toBeTruthy();
    await waitFor(() => expect(calls('GET /api/admin/research/runs')).toHaveLength(1));
    expect(screen.getByText('Loading research runs...')).toBeTruthy();
    answer(jsonResponse(200, []));
    expect(await screen.findByText(NO_RUNS_TEXT)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run now' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Download latest' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says when the nightly run comes, as the service is set, or that it is off', async () => {
    list = () => jsonResponse(200, []);
    schedule = () => jsonResponse(200, { nightly: { time: '03:30', timeZone: 'Europe/London' } });
    renderScreen();
    expect(
      await screen.findByText('The research export of the whole study, run every night at 03:30 Europe/London or when an admin asks.'),
    ).toBeTruthy();
    expect(await screen.findByText('The first one runs at 03:30 Europe/London, or press Run now.')).toBeTruthy();
    cleanup();

    schedule = () => jsonResponse(200, { nightly: null });
    renderScreen();
    expect(
      await screen.findByText('The research export of the whole study, run when an admin asks (the nightly run is off).'),
    ).toBeTruthy();
    expect(await screen.findByText('Press Run now to make the first one.')).toBeTruthy();
  });

  it('names no time it does not know: the schedule failed to load, the runs did not', async () => {
    list = () => jsonResponse(200, []);
    schedule = () => jsonResponse(500, { error: 'internal', message: 'Something went wrong.' });
    renderScreen();
    expect(await screen.findByText('Press Run now to make one.')).toBeTruthy();
    expect(screen.getByText('The research export of the whole study, run on its schedule or when an admin asks.')).toBeTruthy();
    expect(screen.queryByText(/02:00/)).toBeNull();
  });

  it('says the runs could not be loaded, and tries again', async () => {
    list = () => jsonResponse(500, { error: 'internal', message: 'Something went wrong.' });
    renderScreen();

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load research runs' })).toBeTruthy();
    list = () => jsonResponse(200, []);
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(NO_RUNS_TEXT)).toBeTruthy();
  });

  it('says Sleepweave is temporarily unavailable on a 503', async () => {
    list = () => jsonResponse(503, { error: 'unavailable', message: TEMPORARILY_UNAVAILABLE_MESSAGE });
    renderScreen();

    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(within(alert).getByText(TEMPORARILY_UNAVAILABLE_MESSAGE)).toBeTruthy();
  });

  it('lists every run, newest first, with what it did', async () => {
    renderScreen();

    const table = await screen.findByRole('table', { name: 'Research runs, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);

    // Requested on her profile's clock (Europe/London).
    expect(cells(rows[0]!)).toEqual(['Nov 22, 2026, 2:00 AM GMT', 'Nightly', 'Finished', '12.4 s', '24', '3', 'Download1.2 MB']);
    expect(cells(rows[1]!)).toEqual([
      'Nov 21, 2026, 3:30 PM GMT',
      'By an admin',
      'Failed',
      '2 s',
      '--',
      '--',
      // no file: its failure in the file's place
      'The study database did not answer.',
    ]);
    expect(cells(rows[2]!)).toEqual(['Oct 1, 2026, 3:00 AM GMT+1', 'Nightly', 'Finished', '1 min 5 s', '24', '3', 'Not kept']);

    routes[`GET /api/admin/research/runs/${nightly.id}/download`] = () => zip();
    await userEvent.setup().click(within(rows[0]!).getByRole('button', { name: 'Download sleepweave-research-2026-11-22.zip' }));
    const toast = await newestToast('Export Complete');
    expect(toast.getByText('Research data exported successfully. Downloaded sleepweave-research-2026-11-22.zip')).toBeTruthy();
    expect(clicked).toEqual(['sleepweave-research-2026-11-22.zip']);
  });

  it('loads older runs a page at a time (X-Next-Cursor), then no more button', async () => {
    list = () => pageResponse([nightly, failed], 'r1');
    routes['GET /api/admin/research/runs?cursor='] = () => pageResponse([oldRun], null);
    renderScreen();
    const table = await findRunsTable();
    expect(within(table).getAllByRole('row')).toHaveLength(3); // the header and two runs
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load older runs' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/admin/research/runs?cursor=r1');
    expect(screen.queryByRole('button', { name: 'Load older runs' })).toBeNull();
  });

  it('says of an interim run how many of those included are still in their study', async () => {
    list = () => jsonResponse(200, [{ ...nightly, summary: { ...nightly.summary!, participantsIncludedInStudy: 5 } }]);
    renderScreen();
    const interim = await screen.findByRole('region', { name: 'Latest results' });
    expect(within(interim).getByText(/24 participants included \(5 of them still in their study\), 3 not included/)).toBeTruthy();
  });

  it('shows the QA headline and a forest plot of the latest finished run, one row per computable metric', async () => {
    list = () => jsonResponse(200, [failed, nightly]);
    renderScreen();

    const results = await screen.findByRole('region', { name: 'Latest results' });
    expect(within(results).getByText(nightly.summary!.qaHeadline)).toBeTruthy();
    expect(within(results).getByText(/4,180 nights, 24 participants included, 3 not included/)).toBeTruthy();

    const plot = await within(results).findByRole('figure', {
      name: "Polyester vs linen: Cohen's d_z (linen minus polyester) with its 95% confidence interval, by metric",
    });
    // For screen readers: the same numbers as a table.
    const table = within(plot).getByRole('table', {
      name: "Polyester vs linen: Cohen's d_z (linen minus polyester) with its 95% confidence interval, by metric",
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) => [
        row.querySelector('th')?.textContent,
        ...within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ]),
    ).toEqual([
      ['Sleep score', '0.51', '[0.05, 0.97]', '22', '< 0.001'],
      ['Deep sleep (min)', '-0.42', '[-0.86, 0.02]', '21', '0.120'],
      ['Resting heart rate (bpm)', '-0.10', '[-0.50, 0.30]', '21', '1.000'],
    ]);
    // The drawing: a point and an error bar per metric, a line at 0.
    await waitFor(() => expect(plot.querySelectorAll('.recharts-scatter-symbol')).toHaveLength(3));
    expect(plot.querySelectorAll('.recharts-errorBar')).toHaveLength(3);
    expect(plot.querySelectorAll('.recharts-reference-line')).toHaveLength(1);
    const axisLabels = Array.from(plot.querySelectorAll('.recharts-yAxis-tick-labels')[0]!.querySelectorAll('text'), (t) =>
      Array.from(t.querySelectorAll('tspan'), (s) => s.textContent).join(' '),
    );
    expect(axisLabels).toEqual(['Sleep score', 'Deep sleep (min)', 'Resting heart rate (bpm)']);

    const notComputable = within(results).getByRole('list', { name: 'Metrics not computable' });
    expect(
      within(notComputable)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Fewer than 3 participants have both phases (2 pairs): Average SpO2 (%), HRV (ms).']);
  });

  it('says why a computed d_z has no interval (a very large effect), beside the plot', async () => {
    const note =
      '95% CI not computable: a limit of the exact interval lies beyond |ncp| = 1000, where the noncentral t CDF is not checked.';
    const large = run('0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f09', {
      summary: {
        ...nightly.summary!,
        primary: [
          effect('sleepScore', 'Sleep score', { dz: 31.2, dzLow: null, dzHigh: null, pHolm: 0.0001, nPairs: 1000, note }),
          primary[1]!,
        ],
      },
    });
    list = () => jsonResponse(200, [large]);
    renderScreen();

    const results = await screen.findByRole('region', { name: 'Latest results' });
    const intervals = within(results).getByRole('list', { name: 'Intervals not computable' });
    expect(within(intervals).getByRole('listitem').textContent).toBe(
      '95% CI not computable: a limit of the exact interval lies beyond |ncp| = 1000, where the noncentral t CDF is not checked (1000 pairs): Sleep score.',
    );
    expect(within(results).queryByRole('list', { name: 'Metrics not computable' })).toBeNull();
  });

  it('runs now: the button waits while the run is queued and running, polling every 2 s, then the list is read again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const polled: ResearchRun[] = [
      run(NEW_ID, {
        trigger: 'admin',
        status: 'queued',
        startedAt: null,
        finishedAt: null,
        durationMs: null,
        fileName: null,
        sizeBytes: null,
        downloadable: false,
        fileRemoved: false,
        summary: null,
      }),
      run(NEW_ID, {
        trigger: 'admin',
        status: 'running',
        finishedAt: null,
        durationMs: null,
        fileName: null,
        sizeBytes: null,
        downloadable: false,
        fileRemoved: false,
        summary: null,
      }),
      run(NEW_ID, { trigger: 'admin', requestedAt: '2026-11-22T10:00:00.000Z', fileName: 'sleepweave-research-2026-11-22-2.zip' }),
    ];
    let step = 0;
    routes['POST /api/admin/research/runs'] = () => jsonResponse(202, { id: NEW_ID });
    routes[`GET /api/admin/research/runs/${NEW_ID}`] = () => jsonResponse(200, polled[Math.min(step, 2)]);
    renderScreen();
    await findRunsTable();

    const button = screen.getByRole('button', { name: 'Run now' }) as HTMLButtonElement;
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(button);

    const [, init] = calls('POST /api/admin/research/runs')[0]!;
    expect(init?.body).toBe('{}');
    await waitFor(() => expect(calls(`GET /api/admin/research/runs/${NEW_ID}`)).toHaveLength(1));
    expect(refusesAction(button)).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(await screen.findByText('A research run is queued...')).toBeTruthy();

    step = 1;
    await act(() => vi.advanceTimersByTimeAsync(RUN_POLL_MS));
    expect(calls(`GET /api/admin/research/runs/${NEW_ID}`)).toHaveLength(2);
    expect(await screen.findByText('A research run is running...')).toBeTruthy();
    expect(refusesAction(button)).toBe(true);

    const listReads = calls('GET /api/admin/research/runs').length;
    list = () => jsonResponse(200, [polled[2], nightly, failed, oldRun]);
    step = 2;
    await act(() => vi.advanceTimersByTimeAsync(RUN_POLL_MS));
    expect(calls(`GET /api/admin/research/runs/${NEW_ID}`)).toHaveLength(3);

    await waitFor(() => expect(calls('GET /api/admin/research/runs').length).toBeGreaterThan(listReads));
    const table = await findRunsTable();
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(5));
    expect(within(within(table).getAllByRole('row')[1]!).getByText('By an admin')).toBeTruthy();
    expect(screen.getByText('The research run finished.')).toBeTruthy();
    expect(refusesAction(button)).toBe(false);

    // Finished: no more polling.
    await act(() => vi.advanceTimersByTimeAsync(RUN_POLL_MS * 3));
    expect(calls(`GET /api/admin/research/runs/${NEW_ID}`)).toHaveLength(3);
  });

  it('follows a run already on its way (409), and one the list shows running', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const running = run(NEW_ID, {
      status: 'running',
      finishedAt: null,
      durationMs: null,
      fileName: null,
      sizeBytes: null,
      downloadable: false,
      fileRemoved: false,
      summary: null,
    });
    list = () => jsonResponse(200, [nightly]);
    routes['POST /api/admin/research/runs'] = () => jsonResponse(409, { error: 'conflict', message: 'A research run is already running.' });
    routes[`GET /api/admin/research/runs/${NEW_ID}`] = () => jsonResponse(200, running);
    renderScreen();
    await findRunsTable();

    list = () => jsonResponse(200, [running, nightly]);
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(screen.getByRole('button', { name: 'Run now' }));

    const toast = await newestToast('A run is already on its way');
    expect(toast.getByText('A research run is already running.')).toBeTruthy();
    await waitFor(() => expect(calls(`GET /api/admin/research/runs/${NEW_ID}`)).toHaveLength(1));
    expect(refusesAction(screen.getByRole('button', { name: 'Run now' }))).toBe(true);
    expect(await screen.findByText('A research run is running...')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(RUN_POLL_MS));
    expect(calls(`GET /api/admin/research/runs/${NEW_ID}`)).toHaveLength(2);

    // it ends: the line says so (it went blank once the list no longer showed it running)
    const finished = run(NEW_ID, { trigger: 'admin', requestedAt: '2026-11-22T10:00:00.000Z' });
    routes[`GET /api/admin/research/runs/${NEW_ID}`] = () => jsonResponse(200, finished);
    list = () => jsonResponse(200, [finished, nightly]);
    await act(() => vi.advanceTimersByTimeAsync(RUN_POLL_MS));
    await waitFor(() => expect(calls('GET /api/admin/research/runs').length).toBeGreaterThanOrEqual(3));
    expect(await screen.findByText('The research run finished.')).toBeTruthy();
    expect(refusesAction(screen.getByRole('button', { name: 'Run now' }))).toBe(false);
  });

  it('says when a run cannot be started', async () => {
    routes['POST /api/admin/research/runs'] = () => jsonResponse(500, { error: 'internal', message: 'Something went wrong.' });
    renderScreen();
    await findRunsTable();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Run now' }));

    const toast = await newestToast('Run Failed to Start');
    expect(toast.getByText('Failed to start a research run. Please try again.')).toBeTruthy();
    expect(refusesAction(screen.getByRole('button', { name: 'Run now' }))).toBe(false);
  });

  it('on 401 says she is logged out and goes to sign in after half a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    routes['POST /api/admin/research/runs'] = () => jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
    const { router } = renderScreen();
    await findRunsTable();
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(screen.getByRole('button', { name: 'Run now' }));

    const toast = await newestToast('Unauthorized');
    expect(toast.getByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/research');
    await act(() => vi.advanceTimersByTimeAsync(LOGGED_OUT_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it('downloads the latest zip, or says why not', async () => {
    routes['GET /api/admin/research/latest/download'] = () => zip('sleepweave-research-2026-11-22.zip');
    renderScreen();
    await findRunsTable();
    const interact = userEvent.setup();

    await interact.click(screen.getByRole('button', { name: 'Download latest' }));
    const done = await newestToast('Export Complete');
    expect(done.getByText('Research data exported successfully. Downloaded sleepweave-research-2026-11-22.zip')).toBeTruthy();
    expect(clicked).toEqual(['sleepweave-research-2026-11-22.zip']);

    routes['GET /api/admin/research/latest/download'] = () =>
      jsonResponse(404, { error: 'not_found', message: 'No research export has finished yet.' });
    await interact.click(screen.getByRole('button', { name: 'Download latest' }));
    await waitFor(() => expect(calls('GET /api/admin/research/latest/download')).toHaveLength(2));
    const failedToast = await newestToast('Export Failed');
    expect(failedToast.getByText('No research export has finished yet.')).toBeTruthy();
    expect(clicked).toHaveLength(1);
  });

  it('says why Download latest is off when runs finished but none has its zip any more', async () => {
    list = () => jsonResponse(200, [run(nightly.id, { downloadable: false, fileRemoved: true }), failed, oldRun]);
    renderScreen();
    await findRunsTable();
    expect((screen.getByRole('button', { name: 'Download latest' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(NO_ZIP_KEPT)).toBeTruthy();
  });
});

describe('RunsTable', () => {
  it('says why a finished run has no file: removed with a participant who deleted her account, or no longer kept', () => {
    renderWithProviders(
      <RunsTable
        timeZone="UTC"
        runs={[
          run('0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f11', { downloadable: false, fileRemoved: true }),
          run('0c6a3b8e-1f7d-4a57-9a1e-5b2c3d4e5f12', { downloadable: false }),
        ]}
      />,
    );
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('Removed: a participant who may be in it deleted her account');
    expect(rows[1]!.textContent).toContain('Not kept');
  });
});
