// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProtectedRoute } from '../app/protected-route';
import { maria } from '../testing/fixtures';
import { createTestQueryClient, jsonResponse, renderWithProviders } from '../testing/render';
import { setSignedInUser } from './api-client';
import { announceSessionEnd, getUser, setSessionUser, useLogout, userQueryKey, useSessionEndsElsewhere } from './auth';
import { keepChoice, keptChoice } from './device-choices';
import { keepDraft } from './drafts';
import { afterSignIn, leftOnPurpose, rememberLeftOnPurpose, signInReturn } from './sign-in-return';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

function LogoutButton() {
  const logout = useLogout();
  return (
    <button type="button" onClick={() => logout.mutate()}>
      Logout
    </button>
  );
}

/** Signs out with the Logout button on /dashboard and waits for /auth. */
async function signOutFromDashboard() {
  const { router } = renderWithProviders(
    [
      { path: '/dashboard', element: <LogoutButton /> },
      { path: '/auth', element: <p>Sign in page</p> },
    ],
    { path: '/dashboard' },
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Logout' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
}

describe('signing out on purpose', () => {
  it('drops the drafts kept in the tab (they are kept only for a session that ended by itself)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { message: 'Logged out.' })),
    );
    keepDraft('journal', '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11', { gratitude: 'Linen' });
    await signOutFromDashboard();
    expect(Object.keys(window.sessionStorage).filter((key) => key.startsWith('sleepweave:draft:'))).toEqual([]);
  });

  it('drops what the app kept for her in this browser: screen states in the tab, her choices on the device', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { message: 'Logged out.' })),
    );
    keepChoice(maria.id, 'timezone-kept', 'America/New_York Europe/London');
    window.sessionStorage.setItem(
      'sleepweave:entry-state',
      JSON.stringify({ order: ['k /sleep'], entries: { 'k /sleep': { open: true } } }),
    );
    await signOutFromDashboard();
    expect(keptChoice(maria.id, 'timezone-kept')).toBeNull();
    expect(window.localStorage.getItem('sleepweave:choices')).toBeNull();
    expect(window.sessionStorage.getItem('sleepweave:entry-state')).toBeNull();
  });

  it('signing in next starts from Home, not from the page she left (someone else may sign in there)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { message: 'Logged out.' })),
    );
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, maria);
    const { router } = renderWithProviders(
      [
        // the guard sends her to /auth too as her user goes: it must not take the page along
        {
          path: '/sleep/log',
          element: (
            <ProtectedRoute>
              <LogoutButton />
            </ProtectedRoute>
          ),
        },
        { path: '/auth', element: <p>Sign in page</p> },
      ],
      { path: '/sleep/log?date=2026-11-20', queryClient },
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(afterSignIn(router.state.location.state, maria)).toBe('/dashboard');
    expect(leftOnPurpose()).toBe(true);
    setSessionUser(queryClient, maria); // signed in again
    expect(leftOnPurpose()).toBe(false);
  });

  it('and so when an answer of who is signed in, asked before she left, lands after', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, maria)),
    );
    rememberLeftOnPurpose();
    expect(await getUser()).toMatchObject({ id: maria.id });
    expect(leftOnPurpose()).toBe(true);
    expect(signInReturn({ pathname: '/journal', search: '' })).toBeNull();
  });

  it('and so after a reload, or once the app has forgotten what it fetched (its cache lets go after 5 minutes)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { message: 'Logged out.' })),
    );
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, maria);
    const first = renderWithProviders(
      [
        { path: '/journal', element: <LogoutButton /> },
        { path: '/auth', element: <p>Sign in page</p> },
      ],
      {
        path: '/journal',
        queryClient,
      },
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/auth'));
    cleanup();
    // the tab reloaded, someone goes back to a guarded page: signed out, with a new cache
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(401, { error: 'unauthorized', message: 'Not signed in' })),
    );
    const { router } = renderWithProviders(
      [
        {
          path: '/journal',
          element: (
            <ProtectedRoute>
              <p>Journal</p>
            </ProtectedRoute>
          ),
        },
        { path: '/auth', element: <p>Sign in page</p> },
      ],
      { path: '/journal' },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.state).toBeNull();
    expect(signInReturn({ pathname: '/journal', search: '' })).toBeNull();
  });
});

function Journal() {
  useSessionEndsElsewhere();
  return <p>Her journal</p>;
}

describe('her session ended in another tab of the browser', () => {
  it('leaves this tab too: her drafts dropped, her pages gone, to sign in; another user announcing changes nothing', async () => {
    const her = maria.id;
    keepDraft('journal', her, { affirmation: 'unsaved, and hers' });
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(userQueryKey, maria);
    const { router } = renderWithProviders(
      [
        { path: '/journal', element: <Journal /> },
        { path: '/auth', element: <p>Sign in page</p> },
      ],
      { path: '/journal', queryClient },
    );
    // the tab opened for her
    setSignedInUser(her);
    expect(await screen.findByText('Her journal')).toBeTruthy();
    // (BroadcastChannel reaches the other objects of its name, not the one that sent)
    announceSessionEnd('0b7b2c1e-4c1d-4e8f-9a3b-2f1d6c5e4a39', 'account deleted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/journal');
    expect(Object.keys(window.sessionStorage).some((key) => key.startsWith('sleepweave:draft:'))).toBe(true);

    announceSessionEnd(her, 'account deleted');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(Object.keys(window.sessionStorage).filter((key) => key.startsWith('sleepweave:draft:'))).toEqual([]);
    expect(await screen.findByText('Your account was deleted in another tab.')).toBeTruthy();
    setSignedInUser(null);
  });
});
