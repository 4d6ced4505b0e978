// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestQueryClient, deferred, renderWithProviders } from '../../testing/render';
import { PAGE_OFFLINE, PageError, RELOAD_AFTER_SAVES_MS } from './route-error';

function NotLoaded(): never {
  throw new TypeError('Failed to fetch dynamically imported module');
}

const setOnline = (online: boolean) => Object.defineProperty(window.navigator, 'onLine', { value: online, configurable: true });
let reload: ReturnType<typeof vi.fn<() => void>>;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  reload = vi.fn<() => void>();
  vi.spyOn(window.location, 'reload').mockImplementation(reload);
  vi.spyOn(console, 'error').mockImplementation(() => {});
  setOnline(false);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
  setOnline(true);
});

/** The community page, opened offline: its code could not be loaded. */
function openOffline() {
  const queryClient = createTestQueryClient();
  renderWithProviders([{ path: '/community', element: <NotLoaded />, ErrorBoundary: PageError }], { path: '/community', queryClient });
  return queryClient;
}

const backOnline = () =>
  act(() => {
    setOnline(true);
    window.dispatchEvent(new Event('online'));
  });

describe('PageError, a page opened offline', () => {
  it('says she is offline, and loads the page again by itself once she is back online', async () => {
    openOffline();
    expect(await screen.findByText(PAGE_OFFLINE)).toBeTruthy();
    expect(screen.getByText('You are offline')).toBeTruthy();
    await backOnline();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('waits for the saves that waited for the connection to be answered, and for their toasts to be read, before it loads the page again', async () => {
    const queryClient = openOffline();
    await screen.findByText(PAGE_OFFLINE);
    // her journal entry, saved on the journal's page before she came here: on its way
    const answer = deferred<void>();
    const save = queryClient.getMutationCache().build(queryClient, { mutationFn: () => answer.promise });
    void save.execute(undefined);
    await backOnline();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(reload).not.toHaveBeenCalled();

    await act(async () => answer.resolve());
    await act(() => vi.advanceTimersByTimeAsync(RELOAD_AFTER_SAVES_MS - 100));
    expect(reload).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
