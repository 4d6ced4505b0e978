// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userQueryKey } from '../../../lib/auth';
import { createTestQueryClient, jsonResponse, leavingAsks, pageResponse, renderWithProviders } from '../../../testing/render';
import { SettingsScreen } from './settings-screen';
import { maria } from '../../../testing/fixtures';

const fetchMock = vi.fn<typeof fetch>();
/** What the settings calls answer (the session probe GET /api/user always answers her). */
const answers = vi.fn<() => Promise<Response>>();
/** Who looked at her data (GET /api/research/audit/me). */
const dataAccess = vi.fn<(url: string) => Promise<Response>>();
const isDataAccess = (url: unknown) => String(url).startsWith('/api/research/audit/me');

beforeEach(() => {
  fetchMock.mockReset();
  answers.mockReset();
  dataAccess.mockReset();
  dataAccess.mockImplementation(async () => pageResponse([], null));
  fetchMock.mockImplementation(async (url) =>
    url === '/api/user' ? jsonResponse(200, maria) : isDataAccess(url) ? dataAccess(String(url)) : answers(),
  );
  vi.stubGlobal('fetch', fetchMock);
});

/** Calls other than the session probe and the data-access list. */
const calls = () => fetchMock.mock.calls.filter(([url]) => url !== '/api/user' && !isDataAccess(url));
/** A toast's text (radix repeats it in a screen-reader announcer, so there may be two). */
const findToast = async (text: string) => (await screen.findAllByText(text))[0];
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

function renderSettings(signedIn: typeof maria = maria) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(userQueryKey, signedIn);
  const rendered = renderWithProviders(
    [
      { path: '/settings', element: <SettingsScreen /> },
      { path: '/auth', element: <h1>Sign in page</h1> },
    ],
    { path: '/settings', queryClient },
  );
  return { ...rendered, user: userEvent.setup() };
}

/** Types a new last name on her profile and saves it; the profile form. */
async function saveLastName(user: ReturnType<typeof userEvent.setup>, lastName: string) {
  const form = screen.getByRole('form', { name: 'Profile' });
  await user.clear(within(form).getByLabelText('Last name'));
  await user.type(within(form).getByLabelText('Last name'), lastName);
  await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
  return form;
}

const lastCall = () => {
  const [url, init] = calls().at(-1)!;
  return { url, method: init?.method, body: JSON.parse(String(init?.body)) as Record<string, unknown> };
};

describe('Settings: profile', () => {
  it('shows her profile with the e-mail read-only', () => {
    renderSettings();
    const form = screen.getByRole('form', { name: 'Profile' });
    expect((within(form).getByLabelText('First name') as HTMLInputElement).value).toBe('Maria');
    expect((within(form).getByLabelText('Last name') as HTMLInputElement).value).toBe('Lopez');
    const email = within(form).getByLabelText('Email') as HTMLInputElement;
    expect(email.value).toBe('maria@example.com');
    expect(email.readOnly).toBe(true);
    // told to assistive technology, as on sign-up
    expect((within(form).getByLabelText('First name') as HTMLInputElement).required).toBe(true);
    expect((within(form).getByLabelText('Last name') as HTMLInputElement).required).toBe(true);
    expect(within(form).getByLabelText('Hormonal stage').textContent).toBe('Menopause');
    expect(within(form).getByLabelText('Timezone').textContent).toContain('America/New_York');
  });

  it("saves a new hormonal stage ('Saving...' meanwhile), updates her session and toasts", async () => {
    let answer: (r: Response) => void = () => {};
    answers.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { user, queryClient } = renderSettings();
    const form = screen.getByRole('form', { name: 'Profile' });
    await user.click(within(form).getByLabelText('Hormonal stage'));
    await user.click(await screen.findByRole('option', { name: 'Post menopause' }));
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));

    expect(within(form).getByRole('button', { name: 'Saving...' })).toBeTruthy();
    expect(lastCall()).toEqual({
      url: '/api/profile',
      method: 'PUT',
      body: {
        firstName: 'Maria',
        lastName: 'Lopez',
        timezone: 'America/New_York',
        hormonalStage: 'Post menopause',
        // the profile the form was filled from, for the server to merge with a save from another tab
        expected: { firstName: 'Maria', lastName: 'Lopez', timezone: 'America/New_York', hormonalStage: 'Menopause' },
      },
    });
    answer(jsonResponse(200, { ...maria, hormonalStage: 'Post menopause' }));
    expect(await findToast('Settings saved')).toBeTruthy();
    expect(queryClient.getQueryData<typeof maria>(userQueryKey)?.hormonalStage).toBe('Post menopause');
  });

  it('saves once for a double click (one toast), and asks before the page is left while a change is not saved', async () => {
    answers.mockImplementation(async () => jsonResponse(200, { ...maria, lastName: 'Reyes' }));
    const { user } = renderSettings();
    const form = screen.getByRole('form', { name: 'Profile' });
    expect(leavingAsks()).toBe(false);
    await user.clear(within(form).getByLabelText('Last name'));
    await user.type(within(form).getByLabelText('Last name'), 'Reyes');
    expect(leavingAsks()).toBe(true);
    const save = within(form).getByRole('button', { name: 'Save Changes' });
    act(() => {
      fireEvent.click(save);
      fireEvent.click(save);
    });
    expect(await findToast('Settings saved')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls().filter(([url]) => url === '/api/profile')).toHaveLength(1);
    expect(screen.getAllByText('Settings saved')).toHaveLength(1);
    expect(leavingAsks()).toBe(false);
  });

  it('when a field she changed was changed elsewhere (409): says so, shows her profile as it now is with her changes on top, and saves them next', async () => {
    const message =
      'Your timezone was changed to “Europe/Paris” in another tab or on another device since you opened this page, so nothing was saved now. Your changes are still in the form: save again to keep yours.';
    // another tab moved her to Paris and renamed her meanwhile
    const now = { ...maria, timezone: 'Europe/Paris', lastName: 'Lopez-Garcia' };
    fetchMock.mockImplementation(async (url) =>
      url === '/api/user' ? jsonResponse(200, now) : isDataAccess(url) ? dataAccess(String(url)) : answers(),
    );
    answers.mockResolvedValueOnce(jsonResponse(409, { error: 'changed_meanwhile', message }));
    answers.mockResolvedValueOnce(jsonResponse(200, { ...now, timezone: 'Europe/London' }));
    const { user } = renderSettings();
    const form = screen.getByRole('form', { name: 'Profile' });
    await user.click(within(form).getByLabelText('Timezone'));
    await user.click(await screen.findByRole('option', { name: /Europe\/London/ }));
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Your profile was changed elsewhere')).toBeTruthy();
    expect(screen.getAllByText(message).length).toBeGreaterThan(0);
    // the other tab's last name shows; her time zone choice stays
    await waitFor(() => expect((within(form).getByLabelText('Last name') as HTMLInputElement).value).toBe('Lopez-Garcia'));
    expect(within(form).getByLabelText('Timezone').textContent).toContain('Europe/London');

    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Settings saved')).toBeTruthy();
    expect(lastCall().body).toMatchObject({
      lastName: 'Lopez-Garcia',
      timezone: 'Europe/London',
      expected: { lastName: 'Lopez-Garcia', timezone: 'Europe/Paris' },
    });
  });

  it('marks what was fetched for her before stale once saved (her study profile holds her time zone)', async () => {
    answers.mockResolvedValue(jsonResponse(200, { ...maria, timezone: 'Europe/Paris' }));
    const { user, queryClient } = renderSettings();
    queryClient.setQueryData(['auth', 'user'], { timezone: 'America/New_York' });
    expect(queryClient.getQueryState(['auth', 'user'])?.isInvalidated).toBe(false);
    const form = screen.getByRole('form', { name: 'Profile' });
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Settings saved')).toBeTruthy();
    expect(queryClient.getQueryState(['auth', 'user'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(userQueryKey)?.isInvalidated).toBe(false);
  });

  it('names an empty field and does not send', async () => {
    const { user } = renderSettings();
    const form = screen.getByRole('form', { name: 'Profile' });
    await user.clear(within(form).getByLabelText('First name'));
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(within(form).getByText('First name is required')).toBeTruthy();
    expect(calls()).toHaveLength(0);
  });

  it('toasts the failure and keeps what she typed', async () => {
    answers.mockRejectedValue(new TypeError('Failed to fetch'));
    const { user } = renderSettings();
    const form = await saveLastName(user, 'Berg');
    expect(await findToast('Could not save your settings')).toBeTruthy();
    expect(await findToast('Network error. Please try again.')).toBeTruthy();
    expect((within(form).getByLabelText('Last name') as HTMLInputElement).value).toBe('Berg');
  });
});

describe('Settings: profile, her session ended', () => {
  it('says she is logged out, goes to sign in, and gives her changes back once she is signed in again', async () => {
    answers.mockResolvedValue(jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' }));
    const { user, router } = renderSettings();
    await saveLastName(user, 'Berg');
    expect(await findToast('You are logged out. Logging in again...')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    cleanup();

    // signed in again (the same user), back on her settings: her change, still to save
    renderSettings();
    const again = screen.getByRole('form', { name: 'Profile' });
    await waitFor(() => expect((within(again).getByLabelText('Last name') as HTMLInputElement).value).toBe('Berg'));
    expect((within(again).getByLabelText('First name') as HTMLInputElement).value).toBe('Maria');
    expect(window.sessionStorage.getItem('sleepweave:draft:profile')).toBeNull();
  });

  it('saves her changes given back against the profile she typed over, so what another device changed meanwhile stays', async () => {
    answers.mockResolvedValue(jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' }));
    const { user } = renderSettings();
    await saveLastName(user, 'Berg');
    expect(await findToast('You are logged out. Logging in again...')).toBeTruthy();
    cleanup();

    // meanwhile another device moved her to Paris; she signs in again here and saves
    const moved = { ...maria, timezone: 'Europe/Paris' as const };
    fetchMock.mockImplementation(async (url) =>
      url === '/api/user' ? jsonResponse(200, moved) : isDataAccess(url) ? dataAccess(String(url)) : answers(),
    );
    answers.mockResolvedValue(jsonResponse(200, { ...moved, lastName: 'Berg' }));
    const { user: again } = renderSettings(moved);
    const back = screen.getByRole('form', { name: 'Profile' });
    await waitFor(() => expect((within(back).getByLabelText('Last name') as HTMLInputElement).value).toBe('Berg'));
    await again.click(within(back).getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Settings saved')).toBeTruthy();
    // against what she typed over (New York): her time zone untouched there, identity keeps Paris
    expect(lastCall().body).toMatchObject({
      lastName: 'Berg',
      expected: { lastName: 'Lopez', timezone: 'America/New_York' },
    });
    await waitFor(() => expect(within(back).getByLabelText('Timezone').textContent).toContain('Europe/Paris'));
  });
});

describe('Settings: change password', () => {
  async function fill(user: ReturnType<typeof userEvent.setup>, values: { current: string; next: string; confirm: string }) {
    const form = screen.getByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), values.current);
    await user.type(within(form).getByLabelText('New password'), values.next);
    await user.type(within(form).getByLabelText('Confirm new password'), values.confirm);
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    return form;
  }

  it("refuses mismatched passwords with 'Passwords do not match'", async () => {
    const { user } = renderSettings();
    const form = await fill(user, { current: 'old password', next: 'a new password', confirm: 'another one' });
    expect(within(form).getByText('Passwords do not match')).toBeTruthy();
    expect(calls()).toHaveLength(0);
  });

  it('shows a wrong current password under its field', async () => {
    answers.mockResolvedValue(jsonResponse(403, { error: 'wrong_password', message: 'Your current password is not correct.' }));
    const { user } = renderSettings();
    const form = await fill(user, { current: 'not it', next: 'a new password', confirm: 'a new password' });
    expect(await within(form).findByText('Your current password is not correct.')).toBeTruthy();
    expect(within(form).getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true');
  });

  it('says so when her password was changed meanwhile elsewhere (409), not that hers is wrong', async () => {
    const meanwhile =
      'Your password was changed meanwhile, in another tab or with a reset link, so the one you gave is no longer current. Nothing was changed now.';
    answers.mockResolvedValue(jsonResponse(409, { error: 'conflict', message: meanwhile }));
    const { user } = renderSettings();
    const form = await fill(user, { current: 'old password', next: 'a new password', confirm: 'a new password' });
    expect(await findToast('Could not change your password')).toBeTruthy();
    expect(screen.getByText(meanwhile)).toBeTruthy();
    expect(within(form).getByLabelText('Current password').getAttribute('aria-invalid')).not.toBe('true');
  });

  it('changes it, clears the fields and toasts', async () => {
    answers.mockResolvedValue(
      jsonResponse(200, { message: 'Your password has been changed. You have been signed out on your other devices.' }),
    );
    const { user } = renderSettings();
    const form = await fill(user, { current: 'old password', next: 'a new password', confirm: 'a new password' });
    expect(await findToast('Password changed')).toBeTruthy();
    expect(lastCall()).toEqual({
      url: '/api/account/password',
      method: 'POST',
      body: { currentPassword: 'old password', newPassword: 'a new password', confirmPassword: 'a new password' },
    });
    expect((within(form).getByLabelText('New password') as HTMLInputElement).value).toBe('');
  });
});

describe('Settings: delete account', () => {
  it('warns clearly, asks for her password in a dialog, then signs her out to /auth', async () => {
    answers.mockResolvedValue(jsonResponse(200, { message: 'Your account and all your data have been deleted.' }));
    const { user, router, queryClient } = renderSettings();
    expect(screen.getByText('Deleting your account is permanent and cannot be undone.')).toBeTruthy();
    // what stays, said before she decides
    expect(screen.getByText('The names of threads you started stay for the others in them, no longer linked to you.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete My Account' }));
    expect(within(dialog).getByText('Password is required')).toBeTruthy();
    expect(calls()).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Password'), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete My Account' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(lastCall()).toEqual({ url: '/api/account', method: 'DELETE', body: { password: 'my password' } });
    expect(queryClient.getQueryData(userQueryKey)).toBeNull();
    expect(await findToast('Account deleted')).toBeTruthy();
  });

  it('on a touch screen gives the focus to the dialog, not the password (its keyboard covered both buttons); elsewhere to the password', async () => {
    for (const touch of [true, false]) {
      vi.stubGlobal('matchMedia', (query: string) => ({ matches: touch && query === '(pointer: coarse)', media: query }) as MediaQueryList);
      const { user } = renderSettings();
      await user.click(screen.getByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
      await waitFor(() => expect(document.activeElement).toBe(touch ? dialog : within(dialog).getByLabelText('Password')));
      cleanup();
    }
  });

  it('keeps the dialog open with the message when the password is wrong', async () => {
    answers.mockResolvedValue(
      jsonResponse(403, { error: 'wrong_password', message: 'That password is not correct. Your account has not been deleted.' }),
    );
    const { user, router } = renderSettings();
    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByLabelText('Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Delete My Account' }));
    expect(await within(dialog).findByText('That password is not correct. Your account has not been deleted.')).toBeTruthy();
    // focused, so that a screen reader reads the field with its message
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Password')));
    expect(router.state.location.pathname).toBe('/settings');
  });
});

describe('Settings: who looked at your data', () => {
  const entry = (id: string, action: string, by: string | null, at: string) => ({ id, action, by, at });

  it('lists who read her data and which exports held it, newest first, and pages on', async () => {
    dataAccess.mockImplementation(async (url) =>
      url.includes('cursor=c1')
        ? pageResponse([entry('9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e60', 'sleep_exported', 'Ada Lovelace', '2026-10-01T09:00:00.000Z')], null)
        : pageResponse(
            [
              entry('9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f', 'participant_viewed', 'Ada Lovelace', '2026-11-02T14:05:00.000Z'),
              entry('9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6e', 'users_exported', null, '2026-11-01T10:00:00.000Z'),
            ],
            'c1',
          ),
    );
    const { user } = renderSettings();
    const region = screen.getByRole('region', { name: 'Who looked at your data' });
    const list = await within(region).findByRole('list', { name: 'Who looked at your data' });
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toContain('Ada Lovelace viewed your profile and sleep logs');
    expect(items[0]).toContain('Nov 2, 2026, 9:05 AM EST'); // on her profile's clock (New York), not the browser's
    expect(items[1]).toContain('A former administrator exported the users list, which includes your profile');
    await user.click(within(region).getByRole('button', { name: 'Show older' }));
    expect(await within(region).findByText(/Ada Lovelace exported the sleep study data/)).toBeTruthy();
    expect(within(region).queryByRole('button', { name: 'Show older' })).toBeNull();
  });

  it('says so when nobody has', async () => {
    renderSettings();
    const region = screen.getByRole('region', { name: 'Who looked at your data' });
    expect(await within(region).findByText('No administrator has looked at your data yet.')).toBeTruthy();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    dataAccess.mockImplementation(async () => jsonResponse(500, { error: 'internal', message: 'boom' }));
    renderSettings();
    const region = screen.getByRole('region', { name: 'Who looked at your data' });
    expect(await within(region).findByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
