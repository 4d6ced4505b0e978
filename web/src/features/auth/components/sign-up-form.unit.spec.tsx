// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { arrivalAt, jsonResponse, renderWithProviders } from '../../../testing/render';
import { REGISTRATION_REDIRECT_DELAY_MS, SignUpForm } from './sign-up-form';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function fillForm(overrides: Partial<Record<string, string>> = {}, user = userEvent.setup()) {
  const values = {
    'First name': 'Maria',
    'Last name': 'Lopez',
    Email: 'maria@example.com',
    Password: 'calm-nights-42',
    'Confirm password': 'calm-nights-42',
    'Date of birth': '1970-05-14',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) {
    if (value) await user.type(screen.getByLabelText(label), value);
  }
  return user;
}

describe('SignUpForm', () => {
  it('shows "Passwords do not match" inline and does not submit', async () => {
    renderWithProviders(<SignUpForm />);
    const user = await fillForm({ 'Confirm password': 'calm-nights-43' });

    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    const message = await screen.findByText('Passwords do not match');
    const confirm = screen.getByLabelText('Confirm password');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(confirm.getAttribute('aria-describedby')).toContain(message.id);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('requires every field and a password of at least 8 characters', async () => {
    renderWithProviders(<SignUpForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'short');

    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Last name is required')).toBeTruthy();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeTruthy();
    expect(screen.getByText('Date of birth is required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the registration with the default timezone and hormonal stage', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answeredAt = 0;
    fetchMock.mockImplementation(async () => {
      answeredAt = Date.now();
      return jsonResponse(201, {
        message: 'Registered',
        user: {
          id: '6f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a1',
          email: 'maria@example.com',
          firstName: 'Maria',
          lastName: 'Lopez',
          profileImageUrl: null,
          dateOfBirth: '1970-05-14',
          timezone: 'America/New_York',
          hormonalStage: 'Fertile',
          role: 'participant',
          createdAt: '2025-01-01T00:00:00.000Z',
          updatedAt: '2025-01-01T00:00:00.000Z',
        },
      });
    });
    const { router, queryClient } = renderWithProviders(<SignUpForm />, { path: '/auth' });
    const arrivedAt = arrivalAt(router, '/dashboard');
    const user = await fillForm({}, userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));

    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Account created successfully! Redirecting...')).toBeTruthy();
    // The message stays readable for 1.5 s, then she is signed in on /dashboard.
    expect(router.state.location.pathname).toBe('/auth');
    await act(() => vi.advanceTimersByTimeAsync(REGISTRATION_REDIRECT_DELAY_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(arrivedAt()! - answeredAt).toBeGreaterThanOrEqual(REGISTRATION_REDIRECT_DELAY_MS);
    expect(queryClient.getQueryData(['user'])).toMatchObject({ firstName: 'Maria' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/register');
    expect(JSON.parse(String(init?.body))).toEqual({
      firstName: 'Maria',
      lastName: 'Lopez',
      email: 'maria@example.com',
      password: 'calm-nights-42',
      confirmPassword: 'calm-nights-42',
      dateOfBirth: '1970-05-14',
      timezone: 'America/New_York',
      hormonalStage: 'Fertile',
    });
  });

  it("shows the server's message when registration is refused", async () => {
    fetchMock.mockResolvedValue(jsonResponse(409, { error: 'conflict', message: 'An account with this email already exists.' }));
    renderWithProviders(<SignUpForm />);
    const user = await fillForm();

    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect((await screen.findByRole('alert')).textContent).toBe('An account with this email already exists.');
  });

  it("shows the server's word on her password next to it (a password too common to use)", async () => {
    renderWithProviders(<SignUpForm />);
    const user = await fillForm({ Password: 'sunshine1', 'Confirm password': 'sunshine1' });
    fetchMock.mockResolvedValueOnce(
      jsonResponse(400, {
        error: 'validation',
        message: 'password: This password is too common and easy to guess. Please choose another.',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const message = screen.getByText('This password is too common and easy to guess. Please choose another.');
    expect(password.getAttribute('aria-describedby')!.split(' ')).toContain(message.id);
    expect(screen.queryByText(/^password: /)).toBeNull();
  });

  it('says so when the network fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderWithProviders(<SignUpForm />);
    const user = await fillForm();

    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Network error - please try again');
  });
});
