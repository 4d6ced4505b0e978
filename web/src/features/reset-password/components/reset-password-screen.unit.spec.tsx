// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSearchParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { arrivalAt, jsonResponse, renderWithProviders } from '../../../testing/render';
import { RESET_REDIRECT_DELAY_MS, ResetPasswordScreen } from './reset-password-screen';

const fetchMock = vi.fn<typeof fetch>();
const invalid = () => jsonResponse(400, { error: 'invalid_token', message: 'Invalid or expired reset token' });
const valid = () => jsonResponse(200, { valid: true, message: 'Reset token is valid' });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** As the app's route: it reads the address, so it renders again when the address changes. */
function ResetPasswordRoute({ token }: { token: string }) {
  useSearchParams();
  return <ResetPasswordScreen token={token} />;
}

const routes = (token: string) => [
  { path: '/reset-password', element: <ResetPasswordRoute token={token} /> },
  { path: '/auth', element: <h1>Sign in page</h1> },
];

describe('ResetPasswordScreen', () => {
  it("shows 'No reset token provided' with Back to Login when the link has no token", async () => {
    const { router } = renderWithProviders(routes(''), { path: '/reset-password' });
    expect(screen.getByRole('heading', { name: 'Reset Link Invalid' })).toBeTruthy();
    expect(screen.getByText('No reset token provided')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to Login' }));
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('shows the validating message, then the invalid view with the server message', async () => {
    let answer: (r: Response) => void = () => {};
    fetchMock.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    renderWithProviders(routes('abc'), { path: '/reset-password' });
    expect(await screen.findByText('Validating your reset link...')).toBeTruthy();
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/validate-reset-token?token=abc');

    await act(async () => answer(invalid()));
    expect(await screen.findByRole('heading', { name: 'Reset Link Invalid' })).toBeTruthy();
    expect(screen.getByText('Invalid or expired reset token')).toBeTruthy();
    expect(screen.getByText(/ask for a new link/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/auth');
  });

  it("says 'Failed to validate reset token' when the check itself fails, and offers to try again", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderWithProviders(routes('abc'), { path: '/reset-password' });
    expect(await screen.findByText('Failed to validate reset token', {}, { timeout: 4000 })).toBeTruthy();
    // not said to be invalid: it could not be checked
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("Couldn't Check Your Link");
    expect(screen.queryByText('Reset Link Invalid')).toBeNull();
    fetchMock.mockResolvedValue(valid());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('New Password')).toBeTruthy();
  });

  it('on a limit reached while checking the link says when to try again, not that the link is invalid', async () => {
    const wait = 'Too many requests. Please try again in 12 minutes.';
    fetchMock.mockResolvedValue(jsonResponse(429, { error: 'too_many_requests', message: wait }));
    renderWithProviders(routes('abc'), { path: '/reset-password' });
    expect(await screen.findByText(wait, {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Too Many Attempts');
    expect(screen.queryByText(/ask for a new link/)).toBeNull();
    fetchMock.mockResolvedValue(valid());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('New Password')).toBeTruthy();
  });

  it('checks both passwords before sending (length, match, required)', async () => {
    fetchMock.mockResolvedValue(valid());
    renderWithProviders(routes('abc'), { path: '/reset-password' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByText('Password must be at least 8 characters long')).toBeTruthy();
    expect(screen.getByText('Please confirm your new password')).toBeTruthy();

    await user.clear(screen.getByLabelText('New Password'));
    await user.type(screen.getByLabelText('New Password'), 'long enough now');
    await user.type(screen.getByLabelText('Confirm New Password'), 'something else');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal and keeps what she typed", async () => {
    fetchMock.mockResolvedValueOnce(valid()).mockResolvedValueOnce(invalid());
    renderWithProviders(routes('abc'), { path: '/reset-password' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New Password'), 'long enough now');
    await user.type(screen.getByLabelText('Confirm New Password'), 'long enough now');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Invalid or expired reset token');
    expect((screen.getByLabelText('New Password') as HTMLInputElement).value).toBe('long enough now');
  });

  it("says 'Network error. Please try again.' when the reset never gets an answer", async () => {
    fetchMock.mockResolvedValueOnce(valid()).mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderWithProviders(routes('abc'), { path: '/reset-password' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New Password'), 'long enough now');
    await user.type(screen.getByLabelText('Confirm New Password'), 'long enough now');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Network error. Please try again.')).toBeTruthy();
  });

  it("resets ('Resetting Password...' meanwhile), confirms, and goes to /auth after 2 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: (r: Response) => void = () => {};
    fetchMock.mockResolvedValueOnce(valid()).mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const { router } = renderWithProviders(routes('tok-1'), { path: '/reset-password' });
    const arrivedAt = arrivalAt(router, '/auth');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(await screen.findByLabelText('New Password'), 'long enough now');
    await user.type(screen.getByLabelText('Confirm New Password'), 'long enough now');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(screen.getByRole('button', { name: 'Resetting Password...' })).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe('/api/reset-password');
    expect(JSON.parse(String(init?.body))).toEqual({ token: 'tok-1', password: 'long enough now' });

    const answeredAt = Date.now();
    await act(async () =>
      answer(jsonResponse(200, { message: 'Your password has been reset. You can now sign in with your new password.' })),
    );
    expect(await screen.findByRole('heading', { name: 'Password reset successfully!' })).toBeTruthy();
    expect(screen.getByText('Your password has been reset. You can now sign in with your new password.')).toBeTruthy();

    // The confirmation stays for 2 s, then /auth; the used link is not checked again meanwhile,
    // whatever renders the screen again (the app's session ending did: the confirmation
    // flashed 'Validating your reset link...' and the check answered 400)
    await act(() => router.navigate('/reset-password?again=1'));
    expect(screen.getByRole('heading', { name: 'Password reset successfully!' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/reset-password');
    await act(() => vi.advanceTimersByTimeAsync(RESET_REDIRECT_DELAY_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(arrivedAt()! - answeredAt).toBeGreaterThanOrEqual(RESET_REDIRECT_DELAY_MS);
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/validate-reset-token'))).toHaveLength(1);
  });
});
