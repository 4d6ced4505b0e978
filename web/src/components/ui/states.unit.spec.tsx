// @vitest-environment happy-dom
import { TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, NetworkError } from '../../lib/api-client';
import { UNAVAILABLE_RETRY_MS } from '../../lib/use-retry-while-unavailable';
import { CHECK_CONNECTION, ErrorState, LoadingState, SERVER_FAILED } from './states';

afterEach(cleanup);

const text = `The thread could not be loaded. ${CHECK_CONNECTION}`;

describe('ErrorState', () => {
  it('tries again by itself while Sleepweave is temporarily unavailable (a restart), waiting longer each time; not for other failures', () => {
    vi.useFakeTimers();
    try {
      const onRetry = vi.fn();
      const unavailable = () => new ApiRequestError(503, '', { error: 'unavailable', message: TEMPORARILY_UNAVAILABLE_MESSAGE });
      const view = render(<ErrorState text={text} error={unavailable()} onRetry={onRetry} />);
      act(() => void vi.advanceTimersByTime(UNAVAILABLE_RETRY_MS.first - 1));
      expect(onRetry).not.toHaveBeenCalled();
      act(() => void vi.advanceTimersByTime(1));
      expect(onRetry).toHaveBeenCalledTimes(1);
      // that try on its way, then failed again: the next waits twice as long
      view.rerender(<ErrorState text={text} error={unavailable()} onRetry={onRetry} retrying />);
      view.rerender(<ErrorState text={text} error={unavailable()} onRetry={onRetry} />);
      act(() => void vi.advanceTimersByTime(UNAVAILABLE_RETRY_MS.first));
      expect(onRetry).toHaveBeenCalledTimes(1);
      act(() => void vi.advanceTimersByTime(UNAVAILABLE_RETRY_MS.first));
      expect(onRetry).toHaveBeenCalledTimes(2);

      const other = vi.fn();
      view.rerender(<ErrorState text={text} error={new ApiRequestError(500, 'Internal Server Error', null)} onRetry={other} />);
      act(() => void vi.advanceTimersByTime(UNAVAILABLE_RETRY_MS.max * 2));
      expect(other).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks her to check her connection when the request got no answer', () => {
    render(<ErrorState text={text} error={new NetworkError(new TypeError('Failed to fetch'))} />);
    expect(screen.getByRole('alert').textContent).toBe(text);
  });

  it('does not blame her connection when the server answered with a failure of its own', () => {
    render(<ErrorState text={text} error={new ApiRequestError(500, 'Internal Server Error', null)} />);
    expect(screen.getByRole('alert').textContent).toBe(`The thread could not be loaded. ${SERVER_FAILED}`);
  });

  it('says why the server refused the request (400), not to check her connection', () => {
    const refused = new ApiRequestError(400, 'Bad Request', { error: 'validation', message: 'q: q must be at most 200 characters' });
    render(<ErrorState text={text} error={refused} />);
    expect(screen.getByRole('alert').textContent).toBe(
      'The thread could not be loaded. The server refused it: q: q must be at most 200 characters',
    );
  });

  it('says the service is temporarily unavailable when it is (502-504)', () => {
    render(<ErrorState text={text} error={new ApiRequestError(503, 'Service Unavailable', null)} />);
    expect(screen.getByRole('alert').textContent).toBe(TEMPORARILY_UNAVAILABLE_MESSAGE);
  });
});

describe('the focus across the loading and error states', () => {
  /** A screen whose Try again shows its loading state, then the error or the content, as `outcomes` say in turn. */
  function Screen({ outcomes }: { outcomes: ('error' | 'content')[] }) {
    const [state, setState] = useState<'loading' | 'error' | 'content'>('error');
    const [tries, setTries] = useState(0);
    const retry = () => {
      setState('loading');
      setTimeout(() => {
        setState(outcomes[tries] ?? 'content');
        setTries(tries + 1);
      }, 20);
    };
    return (
      <main>
        {state === 'loading' ? <LoadingState text="Loading your sleep logs..." /> : null}
        {state === 'error' ? <ErrorState title="Failed to fetch sleep logs" text={text} onRetry={retry} /> : null}
        {state === 'content' ? <h1>Sleep Dashboard</h1> : null}
        <a href="#next">Next</a>
      </main>
    );
  }

  it('stays with Try again as it is pressed: on the loading text, on Try again if it fails again, then on the page’s heading', async () => {
    const user = userEvent.setup();
    render(<Screen outcomes={['error', 'content']} />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('status'));
    // failed again: on the new Try again
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' })));
    await user.keyboard('{Enter}');
    // loaded: on the heading of what loaded
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Sleep Dashboard' })));
  });

  it('gives the focus to the page’s heading, not to a part’s own loading that comes with the content (a chart’s)', async () => {
    function WithChart() {
      const [loaded, setLoaded] = useState(false);
      return (
        <main>
          {loaded ? (
            <>
              <h1>Weekly Sleep Report</h1>
              <LoadingState inline takesFocus={false} text="Loading chart..." />
            </>
          ) : (
            <ErrorState text={text} onRetry={() => setLoaded(true)} />
          )}
        </main>
      );
    }
    const user = userEvent.setup();
    render(<WithChart />);
    await user.tab();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Weekly Sleep Report' })));
  });

  it('leaves the focus alone when it was elsewhere', async () => {
    render(<Screen outcomes={['content']} />);
    const next = screen.getByRole('link', { name: 'Next' });
    // a retry made without the focus on it (the automatic one, say)
    screen.getByRole('button', { name: 'Try again' }).click();
    next.focus();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Sleep Dashboard' })).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(document.activeElement).toBe(next);
  });
});
