// @vitest-environment happy-dom
import type { LibraryCard } from '@sleepweave/contracts';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, pageResponse, reloadQueries, renderWithProviders, refusesAction } from '../../../testing/render';
import { LibraryScreen, SEARCH_DEBOUNCE_MS } from './library-screen';

const fetchMock = vi.fn<typeof fetch>();

const card = (title: string, overrides: Partial<LibraryCard> = {}): LibraryCard => ({
  id: crypto.randomUUID(),
  category: 'Fabric info',
  title,
  summary: `All about ${title}.`,
  imagePath: '/api/library/images/linen.svg',
  tags: ['linen', 'sleep'],
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const linen = card('Linen at night');
const cotton = card('Cotton basics', { category: 'Sleep tips', tags: ['cotton'] });

/** The search terms the screen asked the server for, in order ('' = no search). */
const searches = () => fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://app').searchParams.get('search') ?? '');

/** Answers like the library service: every card, or those whose title contains the term. */
function serveCards(cards: LibraryCard[]) {
  fetchMock.mockImplementation(async (input) => {
    const term = (new URL(String(input), 'http://app').searchParams.get('search') ?? '').toLowerCase();
    return jsonResponse(
      200,
      cards.filter((c) => c.title.toLowerCase().includes(term)),
    );
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
});

describe('LibraryScreen', () => {
  it('shows the card grid: image, category badge, title linking to the article, summary and tags', async () => {
    serveCards([linen, cotton]);
    renderWithProviders(<LibraryScreen />, { path: '/library' });

    expect(screen.getByRole('heading', { level: 1, name: 'Knowledge Library' })).toBeTruthy();
    const title = await screen.findByRole('link', { name: 'Linen at night' });
    expect(title.getAttribute('href')).toBe(`/library/article/${linen.id}`);
    const item = title.closest('article')!;
    expect(within(item).getByText('Fabric info')).toBeTruthy();
    // (Its three lines: web/e2e/library.spec.ts, where the styles apply.)
    expect(within(item).getByText('All about Linen at night.')).toBeTruthy();
    expect(within(item).getByText('#linen')).toBeTruthy();
    expect(item.querySelector('img')!.getAttribute('src')).toBe('/api/library/images/linen.svg');
    expect(screen.getByText('2 articles')).toBeTruthy();
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/library/cards');
  });

  it('takes a search longer than the box takes from the address as the box would: cut to 200 characters, not refused', async () => {
    serveCards([linen]);
    renderWithProviders(<LibraryScreen />, { path: `/library?search=${'🌙'.repeat(150)}${'a'.repeat(60)}` });
    await waitFor(() => expect(searches()).toEqual([`${'🌙'.repeat(150)}${'a'.repeat(50)}`]));
  });

  it('keeps the cards on screen when a reload fails', async () => {
    serveCards([linen, cotton]);
    const { queryClient } = renderWithProviders(<LibraryScreen />, { path: '/library' });
    expect(await screen.findByText('Cotton basics')).toBeTruthy();

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient, ['library', 'cards', '']);

    expect(screen.getByText('Cotton basics')).toBeTruthy();
    expect(screen.queryByText('Failed to load library content. Please try refreshing the page.')).toBeNull();
  });

  it('searches as she types, once, after a pause', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serveCards([linen, cotton]);
    renderWithProviders(<LibraryScreen />, { path: '/library' });
    await screen.findByText('Cotton basics');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

    await user.type(screen.getByRole('searchbox', { name: 'Search articles' }), 'lin');
    // She pauses.
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS));

    await waitFor(() => expect(screen.queryByText('Cotton basics')).toBeNull());
    expect(screen.getByText('Linen at night')).toBeTruthy();
    expect(screen.getByText('1 article for “lin”')).toBeTruthy();
    expect(searches()).toEqual(['', 'lin']);
  });

  it('keeps a letter typed while the address takes her search (the router applies it a moment later)', async () => {
    serveCards([linen, cotton]);
    const { router } = renderWithProviders(<LibraryScreen searchDelayMs={50} />, { path: '/library' });
    await screen.findByText('Cotton basics');
    const box = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search articles' });
    await userEvent.setup().type(box, 'cot');
    // the next letter, typed once the address says ?search=cot and before the screen renders it
    const typeT = new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (state.location.search !== '?search=cot') return;
        stop();
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(box, 'cott');
        box.dispatchEvent(new Event('input', { bubbles: true }));
        resolve();
      });
    });
    await typeT;
    await waitFor(() => expect(router.state.location.search).toBe('?search=cott'));
    expect(box.value).toBe('cott');
  });

  it('shows in the box a search the address takes from outside (a link, Back), even one she searched before', async () => {
    serveCards([linen, cotton]);
    const { router } = renderWithProviders(<LibraryScreen searchDelayMs={60_000} />, { path: '/library' });
    await screen.findByText('Cotton basics');
    const box = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search articles' });
    const user = userEvent.setup();
    await user.type(box, 'cot');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?search=cot'));
    await act(() => router.navigate('/library'));
    await waitFor(() => expect(box.value).toBe(''));
    await act(() => router.navigate('/library?search=cot'));
    await waitFor(() => expect(box.value).toBe('cot'));
  });

  it('searches at once with the Search button', async () => {
    serveCards([linen, cotton]);
    // A pause far longer than the test: only the button can start this search.
    renderWithProviders(<LibraryScreen searchDelayMs={60_000} />, { path: '/library' });
    await screen.findByText('Cotton basics');
    const user = userEvent.setup();

    await user.type(screen.getByRole('searchbox', { name: 'Search articles' }), 'cot');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    await waitFor(() => expect(screen.queryByText('Linen at night')).toBeNull());
    expect(searches()).toEqual(['', 'cot']);
  });

  it("puts a touch screen's keyboard away when she searches with its Search key (it covered the results); keeps the focus for a mouse and keyboard", async () => {
    for (const touch of [true, false]) {
      vi.stubGlobal('matchMedia', (query: string) => ({ matches: touch && query === '(pointer: coarse)', media: query }) as MediaQueryList);
      serveCards([linen, cotton]);
      renderWithProviders(<LibraryScreen searchDelayMs={60_000} />, { path: '/library' });
      await screen.findByText('Cotton basics');
      const user = userEvent.setup();
      const box = screen.getByRole('searchbox', { name: 'Search articles' });

      await user.type(box, 'cot{Enter}');

      await waitFor(() => expect(screen.queryByText('Linen at night')).toBeNull());
      expect(document.activeElement === box).toBe(!touch);
      cleanup();
      fetchMock.mockReset();
    }
  });

  it("says 'No articles found' / 'Try adjusting your search terms' when a search finds nothing", async () => {
    serveCards([linen]);
    renderWithProviders(<LibraryScreen />, { path: '/library?search=wool' });

    expect(await screen.findByText('No articles found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search terms')).toBeTruthy();
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('wool');
  });

  it('takes a sign the server reads as letters (™ is “tm”) for a search, as the server does', async () => {
    serveCards([linen]);
    renderWithProviders(<LibraryScreen />, { path: `/library?search=${encodeURIComponent('™')}` });
    expect(await screen.findByText('Try adjusting your search terms')).toBeTruthy();
  });

  it("says 'Library content is being loaded' when there are no articles at all", async () => {
    serveCards([]);
    renderWithProviders(<LibraryScreen />, { path: '/library' });

    expect(await screen.findByText('No articles found')).toBeTruthy();
    expect(screen.getByText('Library content is being loaded')).toBeTruthy();
  });

  it('shows the failure text when the library cannot be loaded', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' }));
    renderWithProviders(<LibraryScreen />, { path: '/library' });

    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load library content. Please try refreshing the page.');
  });

  it("loads more articles a page at a time (X-Next-Cursor), the search's own, then no more button", async () => {
    const wool = card('Linen or wool');
    const more = deferred<Response>();
    let secondPageFails = true;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/library/cards?search=linen') return pageResponse([linen], 'c1');
      if (url === '/api/library/cards?search=linen&cursor=c1') {
        if (secondPageFails) return jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
        return more.promise;
      }
      throw new Error(`unexpected ${url}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<LibraryScreen />, { path: '/library?search=linen' });

    await user.click(await screen.findByRole('button', { name: 'Load more articles' }));
    expect((await screen.findByRole('alert')).textContent).toBe('More articles could not be loaded. Please try again.');
    expect(screen.getAllByRole('article')).toHaveLength(1);

    secondPageFails = false;
    await user.click(screen.getByRole('button', { name: 'Load more articles' }));
    expect(refusesAction(await screen.findByRole('button', { name: 'Loading more articles...' }))).toBe(true);
    more.resolve(pageResponse([wool], null));

    await screen.findByRole('link', { name: 'Linen or wool' });
    expect(screen.getAllByRole('article').map((a) => within(a).getAllByRole('link')[0]?.textContent)).toEqual([
      'Linen at night',
      'Linen or wool',
    ]);
    expect(screen.queryByRole('button', { name: /more articles/ })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
