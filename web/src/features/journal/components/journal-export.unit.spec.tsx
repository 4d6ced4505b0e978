// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismiss } from '../../../components/ui/toast-store';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { setUnauthorizedHandler } from '../../../lib/api-client';
import { JournalExport } from './journal-export';

const fetchMock = vi.fn<typeof fetch>();
let entries: unknown[];
let exportAnswer: () => Response;
let clicked: string[];

const entry = {
  id: '0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a01',
  date: '2026-05-04',
  affirmation: 'I am allowed to rest.',
  gratitude: '',
  forgiveness: '',
  createdAt: '2026-05-04T20:00:00.000Z',
};

beforeEach(() => {
  entries = [entry];
  exportAnswer = () =>
    new Response(new Blob(['# my journal']), {
      status: 200,
      headers: { 'content-type': 'text/markdown', 'content-disposition': 'attachment; filename="sleepweave-journal-2026-05-05.md"' },
    });
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(200, maria);
    if (url === '/api/journal/entries') return jsonResponse(200, entries);
    if (url.startsWith('/api/journal/export')) return exportAnswer();
    return jsonResponse(404, { error: 'not_found', message: url });
  });
  vi.stubGlobal('fetch', fetchMock);
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.download);
  });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/journal');
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

const exportUrls = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/journal/export'));

describe('Take your journal with you', () => {
  it('downloads her journal as Markdown or as a PDF', async () => {
    const user = userEvent.setup();
    renderWithProviders(<JournalExport />, { path: '/journal' });
    const region = await screen.findByRole('region', { name: 'Take your journal with you' });
    await user.click(within(region).getByRole('button', { name: 'Export as Markdown' }));
    await waitFor(() => expect(clicked).toEqual(['sleepweave-journal-2026-05-05.md']));
    await user.click(within(region).getByRole('button', { name: 'Export as PDF' }));
    await waitFor(() => expect(exportUrls()).toEqual(['/api/journal/export?format=md', '/api/journal/export?format=pdf']));
  });

  it('while one is prepared, its button keeps the focus (pending, not disabled) and the other waits (disabled)', async () => {
    let answer!: (response: Response) => void;
    const md = exportAnswer;
    exportAnswer = () => new Promise<Response>((resolve) => (answer = resolve)) as never;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/user') return jsonResponse(200, maria);
      if (url === '/api/journal/entries') return jsonResponse(200, entries);
      return exportAnswer();
    });
    const user = userEvent.setup();
    renderWithProviders(<JournalExport />, { path: '/journal' });
    const region = await screen.findByRole('region', { name: 'Take your journal with you' });
    const button = within(region).getByRole('button', { name: 'Export as Markdown' });
    await user.click(button);
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(button);
    expect(within(region).getByRole('button', { name: 'Export as PDF' }).hasAttribute('disabled')).toBe(true);
    answer(md());
    await waitFor(() => expect(clicked).toEqual(['sleepweave-journal-2026-05-05.md']));
  });

  it('downloads once for a double click that lands before the button shows busy', async () => {
    renderWithProviders(<JournalExport />, { path: '/journal' });
    const region = await screen.findByRole('region', { name: 'Take your journal with you' });
    const button = within(region).getByRole('button', { name: 'Export as PDF' });
    act(() => {
      fireEvent.click(button);
      fireEvent.click(button);
    });
    await waitFor(() => expect(clicked).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(exportUrls()).toEqual(['/api/journal/export?format=pdf']);
    expect(clicked).toHaveLength(1);
  });

  it('is not offered before her first entry', async () => {
    entries = [];
    renderWithProviders(<JournalExport />, { path: '/journal' });
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/journal/entries')).toBe(true));
    expect(screen.queryByRole('region', { name: 'Take your journal with you' })).toBeNull();
  });

  it('on 401 says she is logged out (then signs her in), not an export failure, and not at once', async () => {
    exportAnswer = () => jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
    const leftAtOnce = vi.fn();
    const remove = setUnauthorizedHandler(leftAtOnce);
    try {
      const user = userEvent.setup();
      renderWithProviders(<JournalExport />, { path: '/journal' });
      await user.click(await screen.findByRole('button', { name: 'Export as PDF' }));
      const toasts = screen.getByRole('region', { name: /Notifications/ });
      await waitFor(() => expect(toasts.textContent).toContain('You are logged out. Logging in again...'));
      expect(toasts.textContent).not.toContain('Export Failed');
      expect(leftAtOnce).not.toHaveBeenCalled();
    } finally {
      remove();
    }
  });

  it('says so when the export fails', async () => {
    exportAnswer = () => jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
    const user = userEvent.setup();
    renderWithProviders(<JournalExport />, { path: '/journal' });
    await user.click(await screen.findByRole('button', { name: 'Export as PDF' }));
    const toasts = screen.getByRole('region', { name: /Notifications/ });
    await waitFor(() => expect(toasts.textContent).toContain('Failed to export your journal. Please try again.'));
    expect(clicked).toEqual([]);
  });
});
