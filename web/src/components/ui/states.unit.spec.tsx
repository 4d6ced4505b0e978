// @vitest-environment happy-dom
import { TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError, NetworkError } from '../../lib/api-client';
import { CHECK_CONNECTION, ErrorState, SERVER_FAILED } from './states';

afterEach(cleanup);

const text = `The thread could not be loaded. ${CHECK_CONNECTION}`;

describe('ErrorState', () => {
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
