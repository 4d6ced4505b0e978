// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

async function openDialog() {
  renderWithProviders(<SignInForm />);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'maria@example.com');
  await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
  return { user, dialog };
}

describe('Reset Password modal', () => {
  it("sends the e-mail typed on the sign-in form and shows the server's answer", async () => {
    const answer = "If an account exists for that email, we've sent a link to reset your password.";
    fetchMock.mockResolvedValue(jsonResponse(200, { message: answer }));
    const { user, dialog } = await openDialog();
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('maria@example.com');

    await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));

    expect(await within(dialog).findByText(answer)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/forgot-password');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'maria@example.com' });
    // the sign-in form behind the modal was not submitted
    expect(screen.queryByText('Password is required')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Done' })).toBeTruthy();
  });

  it('refuses an address that is not one, without calling the server', async () => {
    const { user, dialog } = await openDialog();
    const email = within(dialog).getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'maria.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the server message on a refusal (429) and keeps the address', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(429, {
        error: 'too_many_requests',
        message: 'Too many password reset requests. Please wait a few minutes and try again.',
      }),
    );
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));
    expect(await within(dialog).findByText('Too many password reset requests. Please wait a few minutes and try again.')).toBeTruthy();
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('maria@example.com');
  });

  it("says 'Failed to send reset email' when the server gives no message", async () => {
    fetchMock.mockResolvedValue(new Response('', { status: 502 }));
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));
    expect(await within(dialog).findByText('Failed to send reset email')).toBeTruthy();
  });

  it("says 'Network error. Please try again.' when the request never gets an answer", async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));
    expect(await within(dialog).findByText('Network error. Please try again.')).toBeTruthy();
  });
});
