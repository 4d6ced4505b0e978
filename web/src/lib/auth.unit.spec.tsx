// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
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

describe('who is signed in', () => {
  it('is asked once when the app starts and its parts mount one after another', async () => {
    const client = createQueryClient();
    // as app/provider.tsx asks at once
    void client.prefetchQuery(userQueryOptions());
    render(
      <QueryClientProvider client={client}>
        <Screen parts={3} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('part 1: Maria')).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'more' }).click());
    act(() => screen.getByRole('button', { name: 'more' }).click());
    expect(await screen.findByText('part 3: Maria')).toBeTruthy();
    // let any refetch a mount started go out
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(sessionCalls()).toBe(1);
  });

  it('is asked again by a screen that shows what her role allows, however young the answer', async () => {
    const client = createQueryClient();
    await client.prefetchQuery(userQueryOptions());
    fetchMock.mockImplementation(async () => jsonResponse(200, { ...maria, role: 'admin' }));
    function Admin() {
      const { data } = useUser({ fresh: true });
      return <p>role: {data?.role}</p>;
    }
    render(
      <QueryClientProvider client={client}>
        <Admin />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('role: admin')).toBeTruthy();
    expect(sessionCalls()).toBe(2);
  });

  it('is asked again by a part that mounts once the answer is older than the reuse window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = createQueryClient();
    await client.prefetchQuery(userQueryOptions());
    render(
      <QueryClientProvider client={client}>
        <Screen parts={2} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('part 1: Maria')).toBeTruthy();
    vi.setSystemTime(Date.now() + SESSION_REUSE_MS + 1);
    act(() => screen.getByRole('button', { name: 'more' }).click());
    await vi.waitFor(() => expect(sessionCalls()).toBe(2));
  });
});
