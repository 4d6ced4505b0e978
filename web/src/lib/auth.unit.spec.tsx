// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { maria } from '../testing/fixtures';
import { jsonResponse } from '../testing/render';
import { SESSION_REUSE_MS, useUser, userQueryOptions } from './auth';
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
