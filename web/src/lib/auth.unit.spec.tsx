// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { maria } from '../testing/fixtures';
import { jsonResponse } from '../testing/render';
import { SIGNED_IN_USER_HEADER } from '@sleepweave/contracts/messages';
import { api, setSignedInUser, setUnauthorizedHandler } from './api-client';
import { getUser, logout, SESSION_REUSE_MS, useUser, userQueryOptions } from './auth';
import { keepDraft } from './drafts';
import { createQueryClient } from './query-client';

const fetchMock = vi.fn<typeof fetch>();
const sessionCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/user')).length;

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => jsonResponse(200, maria));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function Name({ label }: { label: string }) {
  const { data } = useUser();
  return <p>{data ? `${label}: ${data.firstName}` : `${label}: …`}</p>;
}

/** A screen whose parts appear one after another, as a guard, a layout, a screen and its cards do. */
function Screen({ parts }: { parts: number }) {
  const [shown, setShown] = useState(1);
  return (
    <>
      {Array.from({ length: shown }, (_, i) => (
        <Name key={i} label={`part ${i + 1}`} />
      ))}
      {shown < parts && (
        <button type="button" onClick={() => setShown(shown + 1)}>
          more
        </button>
      )}
    </>
  );
}

/**
 * The app with its first question asked, as app/provider.tsx asks it at once;
 * `answered`: rendered once the answer is in.
 */
async function startApp(ui: ReactElement, { answered = false } = {}) {
  const client = createQueryClient();
  const probe = client.prefetchQuery(userQueryOptions());
  if (answered) await probe;
  render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

describe('who is signed in', () => {
  it('is asked once when the app starts and its parts mount one after another', async () => {
    await startApp(<Screen parts={3} />);
    expect(await screen.findByText('part 1: Maria')).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'more' }).click());
    act(() => screen.getByRole('button', { name: 'more' }).click());
    expect(await screen.findByText('part 3: Maria')).toBeTruthy();
    // let any refetch a mount started go out
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(sessionCalls()).toBe(1);
  });

  it('is asked again by a screen that shows what her role allows, however young the answer', async () => {
    function Admin() {
      const { data } = useUser({ fresh: true });
      return <p>role: {data?.role}</p>;
    }
    // her role changed after the app's first answer
    fetchMock.mockImplementationOnce(async () => jsonResponse(200, maria));
    fetchMock.mockImplementation(async () => jsonResponse(200, { ...maria, role: 'admin' }));
    await startApp(<Admin />, { answered: true });
    expect(await screen.findByText('role: admin')).toBeTruthy();
    expect(sessionCalls()).toBe(2);
  });

  it('is asked again by a part that mounts once the answer is older than the reuse window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await startApp(<Screen parts={2} />, { answered: true });
    expect(await screen.findByText('part 1: Maria')).toBeTruthy();
    vi.setSystemTime(Date.now() + SESSION_REUSE_MS + 1);
    act(() => screen.getByRole('button', { name: 'more' }).click());
    await vi.waitFor(() => expect(sessionCalls()).toBe(2));
  });
});

describe('a tab opened for one user, when someone else signs in on the browser', () => {
  it('says whom it was opened for with each call but the one asking who is signed in, and ends its session when that turns out to be someone else', async () => {
    setSignedInUser(null);
    const handler = vi.fn();
    const remove = setUnauthorizedHandler(handler);
    try {
      expect(await getUser()).toEqual(maria);
      await api.post('/api/journal/entry', {});
      const sent = (path: string) => new Headers(fetchMock.mock.calls.filter(([url]) => String(url) === path).at(-1)![1]!.headers);
      expect(sent('/api/journal/entry').get(SIGNED_IN_USER_HEADER)).toBe(maria.id);
      expect(sent('/api/user').get(SIGNED_IN_USER_HEADER)).toBeNull();

      // she signed out in another tab, and Ines signed in there
      const ines = { ...maria, id: '0f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a2', firstName: 'Ines' };
      fetchMock.mockImplementation(async (url) =>
        String(url) === '/api/logout' ? jsonResponse(200, { message: 'Logged out' }) : jsonResponse(200, ines),
      );
      expect(await getUser()).toBeNull();
      expect(handler).toHaveBeenCalledTimes(1);
      // (the app's handler clears the session); signed in again in this tab, it is Ines's
      expect(await getUser()).toEqual(ines);
      await api.post('/api/journal/entry', {});
      expect(sent('/api/journal/entry').get(SIGNED_IN_USER_HEADER)).toBe(ines.id);
      // signing out signs the browser out, whoever the tab was opened for
      await logout();
      expect(sent('/api/logout').get(SIGNED_IN_USER_HEADER)).toBeNull();
    } finally {
      remove();
      setSignedInUser(null);
    }
  });
});

describe('drafts in the tab', () => {
  it("removes another user's drafts and keys as soon as a user is known, not when she first opens a form", async () => {
    setSignedInUser(null);
    const ines = '0f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a2';
    keepDraft('message:some-thread', ines, 'Ines was writing this');
    keepDraft('idempotency:message', ines, [{ content: 'x', key: 'k' }]);
    keepDraft('journal', maria.id, { gratitude: 'mine' });
    try {
      expect(await getUser()).toEqual(maria);
      expect(Object.keys(window.sessionStorage).filter((key) => key.startsWith('sleepweave:draft:'))).toEqual(['sleepweave:draft:journal']);
    } finally {
      setSignedInUser(null);
      window.sessionStorage.clear();
    }
  });
});
