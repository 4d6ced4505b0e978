// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render';
import { AuthScreen } from './auth-screen';

beforeEach(() => {
  vi.stubGlobal('fetch', vi.fn<typeof fetch>());
});
afterEach(() => {
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
});
