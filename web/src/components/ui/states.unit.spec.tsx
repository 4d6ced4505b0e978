// @vitest-environment happy-dom
import { TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, NetworkError } from '../../lib/api-client';
import { UNAVAILABLE_RETRY_MS } from '../../lib/use-retry-while-unavailable';
import { CHECK_CONNECTION, ErrorState, SERVER_FAILED } from './states';

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
