// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignUpFormLoadError } from './sign-up-form-load-error';

beforeEach(() => {
  // React reports the error the boundary catches
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** What React.lazy does when the form's chunk cannot be fetched (offline, or removed by a deploy since the page loaded). */
function ChunkThatFailed(): never {
  throw new TypeError('Failed to fetch dynamically imported module');
}

describe('SignUpFormLoadError', () => {
  it('says in the tab that the form could not load, with a way to reload', () => {
    render(
      <SignUpFormLoadError>
        <ChunkThatFailed />
      </SignUpFormLoadError>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The sign-up form could not load. Please reload the page to try again.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('shows the form when it has loaded', () => {
    render(
      <SignUpFormLoadError>
        <p>the form</p>
      </SignUpFormLoadError>,
    );
    expect(screen.getByText('the form')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
