// @vitest-environment happy-dom
import { onlineManager } from '@tanstack/react-query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { SignInForm } from './sign-in-form';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Types her e-mail and password and presses Sign In. */
async function signIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('SignInForm', () => {
  it('tells assistive technology that both fields are required (as sign-up does)', () => {
    renderWithProviders(<SignInForm />);
    expect((screen.getByLabelText('Email') as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText('Password') as HTMLInputElement).required).toBe(true);
  });

  it('shows the validation messages and does not call the server', async () => {
    renderWithProviders(<SignInForm />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses an e-mail address that is not one', async () => {
    renderWithProviders(<SignInForm />);
    const user = userEvent.setup();
    await signIn(user, 'maria.example.com', 'secret');

    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.queryByText('Password is required')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("toasts 'Login failed' with the server's message", async () => {
    fetchMock.mockResolvedValue(jsonResponse(401, { error: 'unauthorized', message: 'Invalid email or password' }));
    renderWithProviders(<SignInForm />);
    const user = userEvent.setup();
    await signIn(user, 'maria@example.com', 'wrong-password');

    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    expect(screen.getByText('Login failed')).toBeTruthy();
    // her password has the focus, selected, to type it again
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect([password.selectionStart, password.selectionEnd]).toEqual([0, 'wrong-password'.length]);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/login');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'maria@example.com', password: 'wrong-password' });
  });

  it("offline, says 'Network error - please try again' at once (it spun until she was back online)", async () => {
    onlineManager.setOnline(false);
    try {
      fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
      renderWithProviders(<SignInForm />);
      await signIn(userEvent.setup(), 'maria@example.com', 'a-password');
      expect(await screen.findByText('Network error - please try again')).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Sign In' }) as HTMLButtonElement).disabled).toBe(false);
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it('once signed in, closes what was said before (a failed attempt, Unauthorized), which errors otherwise keep open', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { error: 'unauthorized', message: 'Invalid email or password' }));
    renderWithProviders(<SignInForm />);
    const user = userEvent.setup();
    await signIn(user, 'maria@example.com', 'wrong-password');
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();

    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'You have successfully logged in.', user: maria }));
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'the right password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Welcome back!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Invalid email or password')).toBeNull());
  });

  it('goes back to the page her session ended on (a draft waits there), else Home', async () => {
    const routes = [
      { path: '/auth', element: <SignInForm /> },
      { path: '/journal', element: <h1>Journal page</h1> },
      { path: '/dashboard', element: <h1>Home page</h1> },
    ];
    fetchMock.mockImplementation(async () => jsonResponse(200, { message: 'You have successfully logged in.', user: maria }));
    const user = userEvent.setup();
    renderWithProviders(routes, { path: '/auth', state: { from: '/journal', userId: maria.id } });
    await signIn(user, 'maria@example.com', 'the right password');
    expect(await screen.findByRole('heading', { name: 'Journal page' })).toBeTruthy();
    cleanup();
    renderWithProviders(routes, { path: '/auth' });
    await signIn(user, 'maria@example.com', 'the right password');
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeTruthy();
    cleanup();
    // another user's session ended there: she starts from Home
    renderWithProviders(routes, { path: '/auth', state: { from: '/journal', userId: '9c2d7a10-4b3e-4f5a-8e6d-1a2b3c4d5e6f' } });
    await signIn(user, 'maria@example.com', 'the right password');
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeTruthy();
  });

  it('opens the Reset Password modal from "Forgot your password?"', async () => {
    renderWithProviders(<SignInForm />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));

    const dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    expect(within(dialog).getByRole('button', { name: 'Send Reset Link' })).toBeTruthy();
    expect(within(dialog).getByLabelText('Email')).toBeTruthy();
  });
});
