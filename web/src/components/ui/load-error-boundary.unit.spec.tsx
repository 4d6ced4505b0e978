// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoadErrorBoundary } from './load-error-boundary';

beforeEach(() => {
  // React reports the error the boundary catches
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** What React.lazy does when a chunk cannot be fetched (offline, or removed by a deploy since the page loaded). */
function ChunkThatFailed(): never {
  throw new TypeError('Failed to fetch dynamically imported module');
}

describe('LoadErrorBoundary', () => {
  it('says in its place that its part could not load, with a way to reload', () => {
    render(
      <>
        <p>the rest of the screen</p>
        <LoadErrorBoundary what="sign-up form">
          <ChunkThatFailed />
        </LoadErrorBoundary>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The sign-up form could not load. Please reload the page to try again.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByText('the rest of the screen')).toBeTruthy();
  });

  it('shows its part when it has loaded', () => {
    render(
      <LoadErrorBoundary what="chart">
        <p>the form</p>
      </LoadErrorBoundary>,
    );
    expect(screen.getByText('the form')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
