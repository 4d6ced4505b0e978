// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
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
});
