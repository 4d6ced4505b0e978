import { TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismiss } from '../../../components/ui/toast-store';
import { LOGGED_OUT_REDIRECT_MS } from '../../../lib/logged-out-redirect';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, renderWithProviders, refusesAction } from '../../../testing/render';
import { SleepDashboardScreen } from './sleep-dashboard-screen';
import { night } from './sleep-log.fixture';

const fetchMock = vi.fn<typeof fetch>();
let exportAnswer: () => Response | Promise<Response>;
let clicked: { href: string; download: string }[];

const zip = (headers: Record<string, string> = {}) =>
  new Response(new Blob(['PK\u0003\u0004'], { type: 'application/zip' }), {
    status: 200,
    headers: { 'content-type': 'application/zip', ...headers },
  });
/** The newest toast, once it has the title. */
async function newestToast(title: string) {
  return waitFor(() => {
    // Each toast is portalled into the list as it opens: the newest is the last.
    const toast = Array.from(screen.getByRole('region', { name: /Notifications/ }).querySelectorAll('li')).at(-1);
    expect(toast?.textContent).toContain(title);
    return within(toast!);
  });
}

/** The toast store outlives each test's render: empty it. */
function clearToasts() {
  vi.useFakeTimers();
  dismiss();
  vi.runAllTimers();
  vi.useRealTimers();
}
const exportCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/research/export');

beforeEach(() => {
  exportAnswer = () => zip({ 'content-disposition': 'attachment; filename="sleepweave-research-export-maria.zip"' });
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(200, maria);
    if (url === '/api/sleep/logs') return jsonResponse(200, [night('2026-05-06', { sleepScore: 81 })]);
    if (url === '/api/research/export') return exportAnswer();
    return jsonResponse(404, { error: 'not_found', message: url });
  });
  vi.stubGlobal('fetch', fetchMock);
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download });
  });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/export');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  clearToasts();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function renderCard() {
  const rendered = renderWithProviders(<SleepDashboardScreen />, { path: '/sleep/dashboard' });
  const card = await screen.findByRole('region', { name: 'Research Export' });
  return { ...rendered, card, button: within(card).getByRole('button', { name: 'Download Research Export' }) };
}

describe('Research Export card', () => {
  it('sits on the dashboard and says what the export holds', async () => {
    const { card } = await renderCard();
    // what her zip holds: her phases side by side, not the study's paired comparisons (docs/research-export.md)
    expect(within(card).getByText(/a zip of spreadsheet files with your nights and your three phases side by side/)).toBeTruthy();
    expect(within(card).getByText(/The study compares the fabrics across all participants, not from one person's nights/)).toBeTruthy();
    expect(exportCalls()).toHaveLength(0);
  });

  it('downloads the zip under the name the server gives, and says so', async () => {
    const { button } = await renderCard();
    await userEvent.setup().click(button);

    const toast = await newestToast('Export Complete');
    expect(toast.getByText('Research data exported successfully. Downloaded sleepweave-research-export-maria.zip')).toBeTruthy();
    expect(clicked).toEqual([{ href: 'blob:http://localhost/export', download: 'sleepweave-research-export-maria.zip' }]);
    const [, init] = exportCalls()[0]!;
    expect(init?.method).toBe('GET');
    expect(init?.credentials).toBe('same-origin');
  });

  it('names the file sleepweave-research-export-<today>.zip when the server does not', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 22, 9, 30));
    exportAnswer = () => zip();
    const { button } = await renderCard();
    await userEvent.setup().click(button);

    const toast = await newestToast('Export Complete');
    expect(toast.getByText('Research data exported successfully. Downloaded sleepweave-research-export-2026-11-22.zip')).toBeTruthy();
    expect(clicked[0]?.download).toBe('sleepweave-research-export-2026-11-22.zip');
  });

  it('shows the button as busy while the export is prepared', async () => {
    let answer: (response: Response) => void = () => {};
    exportAnswer = () => new Promise<Response>((resolve) => (answer = resolve));
    const { button } = await renderCard();
    await userEvent.setup().click(button);

    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect(refusesAction(button)).toBe(true);

    answer(zip());
    await waitFor(() => expect(refusesAction(button)).toBe(false));
    expect(button.getAttribute('aria-busy')).toBeNull();
  });

  it('downloads once for a double-click that lands before the button shows busy; again once that one is done', async () => {
    const { button } = await renderCard();
    act(() => {
      button.click();
      button.click();
    });
    await newestToast('Export Complete');
    expect(exportCalls()).toHaveLength(1);
    expect(clicked).toHaveLength(1);
    await waitFor(() => expect(refusesAction(button)).toBe(false));
    await userEvent.setup().click(button);
    await waitFor(() => expect(exportCalls()).toHaveLength(2));
  });

  it("says 'Export Failed' with the spec's sentence when the export fails", async () => {
    exportAnswer = () => jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
    const { button } = await renderCard();
    await userEvent.setup().click(button);

    const toast = await newestToast('Export Failed');
    expect(toast.getByText('Failed to generate research export. Please try again.')).toBeTruthy();
    expect(clicked).toHaveLength(0);
  });

  it("gives the server's reason when it refuses (no nights yet, no consent)", async () => {
    exportAnswer = () => jsonResponse(404, { error: 'not_found', message: 'You have no nights to export yet.' });
    const { button } = await renderCard();
    await userEvent.setup().click(button);

    const toast = await newestToast('Export Failed');
    expect(toast.getByText('You have no nights to export yet.')).toBeTruthy();
  });

  it('says Sleepweave is temporarily unavailable on a 503', async () => {
    exportAnswer = () => new Response('', { status: 503, statusText: 'Service Unavailable' });
    const { button } = await renderCard();
    await userEvent.setup().click(button);

    const toast = await newestToast('Export Failed');
    expect(toast.getByText(TEMPORARILY_UNAVAILABLE_MESSAGE)).toBeTruthy();
  });

  it('on 401 says she is logged out and goes to sign in after half a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    exportAnswer = () => jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
    const { button, router } = await renderCard();
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(button);

    const toast = await newestToast('Unauthorized');
    expect(toast.getByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(screen.getByRole('region', { name: /Notifications/ }).querySelectorAll('li')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(LOGGED_OUT_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });
});
