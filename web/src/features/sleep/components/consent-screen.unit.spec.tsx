// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_OUT_REDIRECT_MS } from '../../../lib/logged-out-redirect';
import { arrivalAt, jsonResponse, reloadQueries, renderWithProviders } from '../../../testing/render';
import { ConsentScreen } from './consent-screen';

const fetchMock = vi.fn<typeof fetch>();
const noConsent = { hasConsent: false, consentVersion: null, acceptedAt: null, studyStartDate: null };
const given = { hasConsent: true, consentVersion: '1.0', acceptedAt: '2026-05-04T09:00:00.000Z', studyStartDate: '2026-05-04' };

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const routes = [
  { path: '/sleep/consent', element: <ConsentScreen /> },
  { path: '/sleep/log', element: <p>The sleep log</p> },
  { path: '/auth', element: <p>Sign in page</p> },
];
const render = () => renderWithProviders(routes, { path: '/sleep/consent' });
const toasts = () => screen.getByRole('region', { name: /Notifications/ });

function answer(post: () => Response) {
  fetchMock.mockImplementation(async (input, init) => {
    if (String(input) === '/api/sleep/consent' && init?.method === 'POST') return post();
    if (String(input) === '/api/sleep/consent') return jsonResponse(200, noConsent);
    return jsonResponse(200, {});
  });
}

describe('ConsentScreen', () => {
  it('keeps the page and her ticked box when a reload of her consent status fails', async () => {
    answer(() => jsonResponse(201, given));
    const { queryClient } = render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox'));

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient, ['sleep', 'consent']);

    expect(screen.queryByText("We couldn't load your consent status")).toBeNull();
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
  });

  it('shows the protocol, needs the box ticked, records consent and goes to the sleep log', async () => {
    answer(() => jsonResponse(201, given));
    const { router } = render();
    expect(screen.getByText('Loading consent status...')).toBeTruthy();

    expect(await screen.findByRole('heading', { level: 1, name: 'Sleep Study Consent' })).toBeTruthy();
    for (const text of [
      'Study protocol',
      'Daily routine',
      'Room and bed set-up',
      'Go to bed at 10:00 PM.',
      'Keep your bedroom at 21-23°C.',
      'Nights 15–28',
    ]) {
      expect(screen.getAllByText(text).length).toBeGreaterThan(0);
    }
    const accept = screen.getByRole('button', { name: 'Accept & Continue to Sleep Study' });
    expect(accept.getAttribute('aria-disabled')).toBe('true');

    const user = userEvent.setup();
    await user.click(accept);
    expect(await within(toasts()).findByText('Agreement Required')).toBeTruthy();
    expect(within(toasts()).getByText('Please check the consent box to continue')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
    // the box says so too, and has the focus (a toast is not a field's error)
    const box = screen.getByRole('checkbox');
    expect(document.activeElement).toBe(box);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe('Please check the consent box to continue');

    await user.click(screen.getByRole('checkbox'));
    expect(box.hasAttribute('aria-invalid')).toBe(false);
    expect(accept.getAttribute('aria-disabled')).toBe('false');
    await user.click(accept);

    expect(await within(toasts()).findByText('Consent Recorded')).toBeTruthy();
    expect(within(toasts()).getByText('Thank you for joining our sleep study!')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/sleep/log'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ consentVersion: '1.0' });
  });

  it('sends a participant who consented before straight to the sleep log', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, given));
    const { router } = render();
    await waitFor(() => expect(router.state.location.pathname).toBe('/sleep/log'));
  });

  it('opens the protocol details from Learn More', async () => {
    answer(() => jsonResponse(201, given));
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Learn More' }));
    const dialog = await screen.findByRole('dialog', { name: 'About the sleep study' });
    expect(within(dialog).getByText('How the 42 days run')).toBeTruthy();
    expect(within(dialog).getByText('Resting heart rate')).toBeTruthy();
  });

  it('on 401 says she is logged out and goes to sign in after half a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answeredAt = 0;
    answer(() => {
      answeredAt = Date.now();
      return jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
    });
    const { router } = render();
    const arrivedAt = arrivalAt(router, '/auth');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Accept & Continue to Sleep Study' }));
    expect(await within(toasts()).findByText('Unauthorized')).toBeTruthy();
    expect(within(toasts()).getByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sleep/consent');
    await act(() => vi.advanceTimersByTimeAsync(LOGGED_OUT_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(arrivedAt()! - answeredAt).toBeGreaterThanOrEqual(LOGGED_OUT_REDIRECT_MS);
  });

  it('says so when consent could not be recorded, and keeps the page', async () => {
    answer(() => jsonResponse(500, { error: 'internal', message: 'Something went wrong' }));
    const { router } = render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Accept & Continue to Sleep Study' }));
    expect(await within(toasts()).findByText('Failed to record consent. Please try again.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sleep/consent');
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
  });

  it('gives the server’s words when it is temporarily unavailable (her profile still being set up)', async () => {
    answer(() => jsonResponse(503, { error: 'unavailable', message: 'Your profile is still being set up. Please try again in a moment.' }));
    const { router } = render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Accept & Continue to Sleep Study' }));
    expect(await within(toasts()).findByText('Your profile is still being set up. Please try again in a moment.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sleep/consent');
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
  });
});
