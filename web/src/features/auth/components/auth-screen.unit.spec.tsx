// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { dismiss } from '../../../components/ui/toast-store';
import { AuthScreen } from './auth-screen';

beforeEach(() => {
  vi.stubGlobal('fetch', vi.fn<typeof fetch>());
});
afterEach(() => {
  dismiss();
  cleanup();
  vi.unstubAllGlobals();
});

describe('AuthScreen', () => {
  it('makes the sign-up form only when its tab first opens', async () => {
    renderWithProviders(<AuthScreen />);
    expect(screen.getByLabelText('Email', { selector: '#signin-email' })).toBeTruthy();
    expect(screen.queryByText('Create your account')).toBeNull();
    expect(screen.queryByLabelText('First name')).toBeNull();

    await userEvent.setup().click(screen.getByRole('tab', { name: 'Sign Up' }));

    expect(await screen.findByLabelText('First name')).toBeTruthy();
    expect(screen.getByText('Create your account')).toBeTruthy();
  });

  it('keeps what she typed in either form when she switches tabs', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AuthScreen />);
    await user.type(screen.getByLabelText('Email', { selector: '#signin-email' }), 'maria@example.com');
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(await screen.findByLabelText('First name'), 'Maria');

    await user.click(screen.getByRole('tab', { name: 'Sign In' }));
    expect(screen.getByLabelText<HTMLInputElement>('Email', { selector: '#signin-email' }).value).toBe('maria@example.com');
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.getByLabelText<HTMLInputElement>('First name').value).toBe('Maria');
  });

  it("clears a failed sign-in's message when she switches to Sign Up (spec: switching tab clears messages)", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => jsonResponse(401, { error: 'unauthorized', message: 'Invalid email or password' })),
    );
    const user = userEvent.setup();
    renderWithProviders(<AuthScreen />);
    await user.type(screen.getByLabelText('Email', { selector: '#signin-email' }), 'maria@example.com');
    await user.type(screen.getByLabelText('Password', { selector: '#signin-password' }), 'not her password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await waitFor(() => expect(screen.queryByText('Invalid email or password')).toBeNull());
  });

  it('says nothing of a sign-in answered as failed after she switched to Sign Up (its message was cleared with the tab)', async () => {
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const user = userEvent.setup();
    renderWithProviders(<AuthScreen />);
    await user.type(screen.getByLabelText('Email', { selector: '#signin-email' }), 'maria@example.com');
    await user.type(screen.getByLabelText('Password', { selector: '#signin-password' }), 'not her password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await act(async () => answer(jsonResponse(401, { error: 'unauthorized', message: 'Invalid email or password' })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Invalid email or password')).toBeNull();

    // back on Sign In, a new attempt that fails says so
    await user.click(screen.getByRole('tab', { name: 'Sign In' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await act(async () => answer(jsonResponse(401, { error: 'unauthorized', message: 'Invalid email or password' })));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await waitFor(() => expect(screen.queryByText('Invalid email or password')).toBeNull());

    // away and back on Sign In before its answer: the failure is said there
    await user.click(screen.getByRole('tab', { name: 'Sign In' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.click(screen.getByRole('tab', { name: 'Sign In' }));
    await act(async () => answer(jsonResponse(401, { error: 'unauthorized', message: 'Invalid email or password' })));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
  });
});
