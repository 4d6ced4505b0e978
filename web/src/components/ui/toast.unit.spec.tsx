// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from './toast';
import { dismiss, toast } from './toast-store';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  act(() => dismiss());
  act(() => vi.runOnlyPendingTimers());
  cleanup();
  vi.useRealTimers();
});

describe('Toaster', () => {
  it('closes a notice after 5 s, and keeps an error until she closes it (no one reads against a clock)', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Saved', description: 'Your entry is saved.' });
      toast({ title: 'Error', description: 'Failed to save journal entry. Please try again.', variant: 'destructive' });
    });
    expect(screen.getByText('Saved')).toBeTruthy();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.queryByText('Saved')).toBeNull();
    expect(screen.getByText('Failed to save journal entry. Please try again.')).toBeTruthy();
  });

  it('closes a notice she taps, an error too (it lay over what she meant to tap)', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Login failed', description: 'Invalid email or password', variant: 'destructive' });
    });
    fireEvent.click(screen.getByText('Invalid email or password'));
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryByText('Invalid email or password')).toBeNull();
  });

  it('shows one error at a time: a new one replaces the one before, and a success closes it', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Login failed', description: 'Invalid email or password', variant: 'destructive' });
      toast({ title: 'Login failed', description: 'Invalid email or password', variant: 'destructive' });
      toast({ title: 'Login failed', description: 'Too many attempts', variant: 'destructive' });
    });
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryAllByText('Invalid email or password')).toHaveLength(0);
    expect(screen.getAllByText('Too many attempts')).toHaveLength(1);
    act(() => {
      toast({ title: 'Consent Recorded', description: 'Thank you for joining our sleep study!' });
    });
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryByText('Too many attempts')).toBeNull();
    expect(screen.getByText('Thank you for joining our sleep study!')).toBeTruthy();
  });
});
