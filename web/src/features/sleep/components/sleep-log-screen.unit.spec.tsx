// @vitest-environment happy-dom
import { format, parseISO } from 'date-fns';
import { addDays, calendarDateIn, defaultLogNight, type SleepLog } from '@sleepweave/contracts';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismiss } from '../../../components/ui/toast-store';
import { LOGGED_OUT_REDIRECT_MS } from '../../../lib/logged-out-redirect';
import { arrivalAt, createTestQueryClient, jsonResponse, leavingAsks, reloadQueries, renderWithProviders } from '../../../testing/render';
import { nightName } from './nights';
import {
  CHANGED_WHILE_SAVING,
  lookupFailedText,
  NOT_ENDED_NOT_SAVED,
  NOT_ENDED_YET,
  SAVED_BEFORE_IT_ENDED,
  TYPED_OVER_STORED,
} from './sleep-log-form';
import { SleepLogScreen } from './sleep-log-screen';

const fetchMock = vi.fn<typeof fetch>();
const zone = 'Europe/London';
/**
 * The tests run at midday in her zone, whatever the hour of the run: the night the form
 * opens on and its guidance depend on it (from midnight to 04:00 the night in progress is
 * the one before, and her first night, tonight at noon, is then tomorrow's: two tests failed
 * when run after midnight). Tests of other hours set their own.
 */
const NOON = new Date(`${calendarDateIn(zone, new Date())}T12:00:00Z`);
const today = calendarDateIn(zone, NOON);
const userId = '6f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a1';

const profile = (studyStartDate: string | null) => ({
  id: userId,
  email: 'maria@example.com',
  firstName: 'Maria',
  lastName: 'Lopez',
  profileImageUrl: null,
  dateOfBirth: '1970-05-14',
  timezone: zone,
  hormonalStage: 'Menopause',
  role: 'participant',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  studyStartDate,
});

/** A stored night, saved the morning after it (after it ended) unless `overrides` say otherwise. */
function storedLog(overrides: Partial<SleepLog> = {}): SleepLog {
  const savedAt = `${addDays(overrides.date ?? today, 1)}T14:00:00.000Z`;
  return {
    id: '0d7b7d8e-58b4-4b8f-9a55-3f0c7a1e2b90',
    userId,
    date: today,
    studyDay: 1,
    phase: 'polyester',
    recommendedMaterial: '100% Polyester',
    sleepwearMaterial: '100% Polyester',
    sleepScore: 82,
    totalSleepMinutes: 452,
    sleepEfficiency: null,
    timeInBedMinutes: null,
    restingHr: 56,
    restfulness: null,
    remMinutes: 95,
    deepMinutes: null,
    latencyMinutes: null,
    timingScore: null,
    avgSpo2: null,
    breathingRegularity: null,
    lowestHr: null,
    avgHrv: null,
    sleepQuality110: 7,
    restfulnessSelf: null,
    morningMood: null,
    dreamRecall: false,
    fabricComfort: null,
    emotionalCalm: null,
    heatWave: false,
    heatWakeups: 0,
    comments: null,
    createdAt: savedAt,
    updatedAt: savedAt,
    ...overrides,
  };
}

interface Server {
  start?: string | null;
  consent?: boolean;
  logs?: Record<string, SleepLog>;
  post?: (body: Record<string, unknown>) => Response | Promise<Response>;
  put?: (body: Record<string, unknown>) => Response | Promise<Response>;
  /** Answers a night's lookup instead of `logs`, when it answers anything. */
  lookup?: (date: string) => Response | Promise<Response | undefined> | undefined;
}

function serve({ start = today, consent = true, logs = {}, post, put, lookup }: Server) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (url === '/api/auth/user') return jsonResponse(200, profile(start));
    if (url === '/api/user') {
      const { studyStartDate: _start, ...user } = profile(start);
      return jsonResponse(200, user);
    }
    if (url === '/api/sleep/consent') {
      return jsonResponse(
        200,
        consent
          ? { hasConsent: true, consentVersion: '1.0', acceptedAt: '2026-05-04T09:00:00.000Z', studyStartDate: start }
          : { hasConsent: false, consentVersion: null, acceptedAt: null, studyStartDate: null },
      );
    }
    if (url === '/api/sleep/logs') return jsonResponse(200, Object.values(logs));
    if (url.startsWith('/api/sleep/log/') && method === 'GET') {
      const answer = await lookup?.(url.slice('/api/sleep/log/'.length));
      if (answer) return answer;
      const log = logs[url.slice('/api/sleep/log/'.length)];
      return log ? jsonResponse(200, log) : jsonResponse(404, { error: 'not_found', message: 'No sleep log for this date.' });
    }
    if (url === '/api/sleep/log' && method === 'POST') return post!(body);
    if (url.startsWith('/api/sleep/log/') && method === 'PUT') return put!(body);
    return jsonResponse(500, { error: 'internal', message: `unexpected ${method} ${url}` });
  });
}

/** Her nights as the server keeps them: a save of tonight's is stored and answered (201). */
function servingSaves() {
  const logs: Record<string, SleepLog> = {};
  serve({
    logs,
    post: (body) => {
      logs[today] = storedLog({ ...(body as Partial<SleepLog>) });
      return jsonResponse(201, logs[today]);
    },
  });
}

const routes = [
  { path: '/sleep/log', element: <SleepLogScreen /> },
  { path: '/sleep/consent', element: <p>Consent page</p> },
  { path: '/auth', element: <p>Sign in page</p> },
];
/** Types a field's value in one go (a click, then one paste). */
async function fill(user: ReturnType<typeof userEvent.setup>, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}
const longDate = (date: string) => format(parseISO(date), 'EEEE, MMMM d, yyyy');
const toasts = () => screen.getByRole('region', { name: /Notifications/ });
const posts = () => fetchMock.mock.calls.filter(([url, init]) => String(url) === '/api/sleep/log' && init?.method === 'POST');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOON, shouldAdvanceTime: true });
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.sessionStorage.clear();
  // Toasts live in a module-level store: close this test's so the next one starts clean.
  dismiss();
});

/** Two stored nights, A (score 60) and B (score 77), the two nights before today. */
function twoStoredNights() {
  const nightA = addDays(today, -2);
  const nightB = addDays(today, -1);
  const logs = {
    [nightA]: storedLog({ id: '11111111-58b4-4b8f-9a55-3f0c7a1e2b90', date: nightA, sleepScore: 60 }),
    [nightB]: storedLog({ id: '22222222-58b4-4b8f-9a55-3f0c7a1e2b90', date: nightB, sleepScore: 77 }),
  };
  return { nightA, nightB, logs };
}

/** Opens night A, stored, and types a comment on it. */
async function typeOnNightA(nightA: string) {
  renderWithProviders(routes, { path: `/sleep/log?date=${nightA}` });
  await screen.findByRole('button', { name: 'Update Sleep Log' });
  await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('60'));
  const user = userEvent.setup();
  await fill(user, screen.getByLabelText('Comments'), 'Woke at 4 on night A');
  return user;
}

describe('SleepLogScreen', () => {
  it('shows the phase banner and guidance of the night and saves typed durations as minutes', async () => {
    servingSaves();
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(['sleep', 'logs'], []);
    renderWithProviders(routes, { path: '/sleep/log', queryClient });

    expect(await screen.findByText('Polyester - Day 1 of 14')).toBeTruthy();
    expect(screen.getByText('Phase: Polyester (Day 1 of 14) — Tonight, please wear your polyester pyjamas.')).toBeTruthy();
    expect(screen.queryByText('Phase Transition')).toBeNull();
    for (const section of ['Sleepwear Information', 'Objective Sleep Data', 'Subjective Experience']) {
      expect(screen.getByRole('group', { name: section })).toBeTruthy();
    }
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(today);
    expect(screen.getByLabelText('Sleepwear material').textContent).toContain('100% Polyester');
    expect(screen.getByText('7/10 · Good')).toBeTruthy();

    const user = userEvent.setup();
    await fill(user, screen.getByLabelText('Total sleep'), '7h32m');
    await fill(user, screen.getByLabelText('REM sleep'), '1h25m');
    await fill(user, screen.getByLabelText('Time to fall asleep'), '15m');
    await fill(user, screen.getByLabelText('Sleep score'), '82');
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));

    expect(await within(toasts()).findByText('Sleep Log Saved')).toBeTruthy();
    expect(within(toasts()).getByText('Your sleep data has been recorded successfully.')).toBeTruthy();
    expect(posts()).toHaveLength(1);
    expect(JSON.parse(String(posts()[0]![1]!.body))).toEqual({
      date: today,
      sleepwearMaterial: '100% Polyester',
      totalSleepMinutes: 452,
      remMinutes: 85,
      latencyMinutes: 15,
      sleepScore: 82,
      sleepQuality110: 7,
      heatWakeups: 0,
      dreamRecall: false,
      heatWave: false,
    });
    // The saved night stays in the form, now in edit mode; the list is refreshed.
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save Sleep Log' })).toBeNull();
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('82');
    expect((screen.getByLabelText('Total sleep') as HTMLInputElement).value).toBe('7h32m');
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(today);
    expect(queryClient.getQueryState(['sleep', 'logs'])?.isInvalidated).toBe(true);
  });

  it('shows the night just saved in edit mode: pressing the button again updates it, never a second create', async () => {
    const yesterday = addDays(today, -1);
    const logs: Record<string, SleepLog> = {};
    serve({
      start: addDays(today, -3),
      logs,
      post: (body) => {
        logs[String(body.date)] = storedLog({ ...(body as Partial<SleepLog>) });
        return jsonResponse(201, logs[String(body.date)]);
      },
      put: (body) => jsonResponse(200, storedLog({ ...(body as Partial<SleepLog>), updatedAt: '2026-05-06T07:00:00.000Z' })),
    });
    renderWithProviders(routes, { path: `/sleep/log?date=${yesterday}` });
    const user = userEvent.setup();
    expect(((await screen.findByLabelText('Date')) as HTMLInputElement).value).toBe(yesterday);
    await fill(user, screen.getByLabelText('Sleep score'), '70');
    await user.click(await screen.findByRole('button', { name: 'Save Sleep Log' }));

    expect(await within(toasts()).findByText('Sleep Log Saved')).toBeTruthy();
    const update = await screen.findByRole('button', { name: 'Update Sleep Log' });
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(yesterday);
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('70');
    expect(screen.getByText(new RegExp(`You already logged`))).toBeTruthy();

    await user.click(update);
    expect(await within(toasts()).findByText('Sleep Log Updated')).toBeTruthy();
    expect(posts()).toHaveLength(1);
    expect(within(toasts()).queryByText('Entry already exists')).toBeNull();
  });

  it('sends one save for a double click, of a new night and of a stored one (the second click comes before the answer)', async () => {
    const yesterday = addDays(today, -1);
    const logs: Record<string, SleepLog> = {};
    // each answer waits until the test lets it go
    let release: () => void = () => {};
    const held = <T,>(answer: () => T) => new Promise<T>((resolve) => (release = () => resolve(answer())));
    serve({
      start: addDays(today, -3),
      logs,
      post: (body) =>
        held(() => {
          logs[String(body.date)] = storedLog({ ...(body as Partial<SleepLog>) });
          return jsonResponse(201, logs[String(body.date)]);
        }),
      put: (body) => held(() => jsonResponse(200, storedLog({ ...(body as Partial<SleepLog>), updatedAt: '2026-05-06T07:00:00.000Z' }))),
    });
    renderWithProviders(routes, { path: `/sleep/log?date=${yesterday}` });
    const user = userEvent.setup();
    await fill(user, await screen.findByLabelText('Sleep score'), '70');
    // the two clicks of a quick double click, both before the form has checked the first
    const twice = (button: HTMLElement) =>
      act(() => {
        fireEvent.click(button);
        fireEvent.click(button);
      });
    await twice(await screen.findByRole('button', { name: 'Save Sleep Log' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    await act(async () => release());
    expect(await within(toasts()).findByText('Sleep Log Saved')).toBeTruthy();
    await twice(await screen.findByRole('button', { name: 'Update Sleep Log' }));
    await act(async () => release());
    expect(await within(toasts()).findByText('Sleep Log Updated')).toBeTruthy();
    const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect([posts().length, puts().length]).toEqual([1, 1]);
    expect(within(toasts()).queryByText('Entry already exists')).toBeNull();
    // and the next save goes
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    await waitFor(() => expect(puts()).toHaveLength(2));
    await act(async () => release());
  });

  it('keeps what she changed while her save was on its way (still to save), and nothing else', async () => {
    const yesterday = addDays(today, -1);
    const logs: Record<string, SleepLog> = {};
    let answer: (r: Response) => void = () => {};
    serve({
      start: addDays(today, -3),
      logs,
      post: (body) => {
        logs[String(body.date)] = storedLog({ ...(body as Partial<SleepLog>) });
        return new Promise<Response>((resolve) => (answer = resolve)) as unknown as Response;
      },
    });
    renderWithProviders(routes, { path: `/sleep/log?date=${yesterday}` });
    const user = userEvent.setup();
    expect(((await screen.findByLabelText('Date')) as HTMLInputElement).value).toBe(yesterday);
    await fill(user, screen.getByLabelText('Sleep score'), '70');
    await user.click(await screen.findByRole('button', { name: 'Save Sleep Log' }));
    await screen.findByRole('button', { name: 'Saving...' });
    // she adds a comment while it saves
    await fill(user, screen.getByLabelText('Comments'), 'Woke at 3 with a hot flash');
    answer(jsonResponse(201, logs[yesterday]!));
    expect(await within(toasts()).findByText('Sleep Log Saved')).toBeTruthy();
    await screen.findByRole('button', { name: 'Update Sleep Log' });
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Woke at 3 with a hot flash');
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('70');
    // said, as the form looks saved; and leaving the page asks first
    expect(await within(toasts()).findByText(CHANGED_WHILE_SAVING)).toBeTruthy();
    expect(leavingAsks()).toBe(true);
  });

  it('names the night it opens on: by default the night that just ended in her timezone', async () => {
    const start = addDays(today, -20);
    serve({ start });
    renderWithProviders(routes, { path: '/sleep/log' });
    const night = defaultLogNight(zone, new Date(), start);
    expect(((await screen.findByLabelText('Date')) as HTMLInputElement).value).toBe(night);
    expect(screen.getByRole('heading', { level: 2, name: nightName(night) })).toBeTruthy();
    expect(screen.getByText('Last night')).toBeTruthy();
  });

  it('opens on her first night, tonight, on the day she joined', async () => {
    // Noon in London on the day she joined (only the date is faked; timers run).
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T12:00:00Z') });
    try {
      serve({ start: '2026-11-23' });
      renderWithProviders(routes, { path: '/sleep/log' });
      expect(((await screen.findByLabelText('Date')) as HTMLInputElement).value).toBe('2026-11-23');
      expect(screen.getByRole('heading', { level: 2, name: 'Night of Mon 23 → Tue 24 Nov' })).toBeTruthy();
      expect(screen.getByText('Tonight')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('left open overnight with nothing typed, moves on to the night that has ended since; typed into, stays on its night', async () => {
    // Monday 23 November, 21:00 in London: last night is Sun 22 → Mon 23 (only the date is faked)
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T21:00:00Z') });
    try {
      serve({ start: '2026-11-10' });
      const { router } = renderWithProviders(routes, { path: '/sleep/log' });
      const dateField = () => (screen.getByLabelText('Date') as HTMLInputElement).value;
      const pageShown = () => act(() => void document.dispatchEvent(new Event('visibilitychange')));
      expect(await screen.findByRole('heading', { level: 2, name: 'Night of Sun 22 → Mon 23 Nov' })).toBeTruthy();

      // Tuesday 08:00, the tab shown again: the night of Mon 23 has ended
      vi.setSystemTime(new Date('2026-11-24T08:00:00Z'));
      pageShown();
      expect(await screen.findByRole('heading', { level: 2, name: 'Night of Mon 23 → Tue 24 Nov' })).toBeTruthy();
      expect(dateField()).toBe('2026-11-23');
      expect(screen.getByText('Last night')).toBeTruthy();
      expect(router.state.location.search).toBe('?date=2026-11-23');

      // typed into, the form stays on its night, which is no longer last night
      await fill(userEvent.setup(), screen.getByLabelText('Comments'), 'Woke at 2');
      vi.setSystemTime(new Date('2026-11-25T08:00:00Z'));
      pageShown();
      expect(await screen.findByText(/Sleepwear for this night: 100% Polyester/)).toBeTruthy();
      expect(dateField()).toBe('2026-11-23');
      expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Woke at 2');
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows the night's recommended material until she chooses one herself", async () => {
    const start = addDays(today, -20);
    serve({ start });
    const day2 = addDays(start, 1);
    const day16 = addDays(start, 15);
    renderWithProviders(routes, { path: `/sleep/log?date=${day2}` });
    const material = () => screen.getByLabelText('Sleepwear material').textContent;
    // an earlier night: the warning asks her to check what she wore (not to "update" it)
    const mismatch = "This doesn't match the phase of this night, which was for 100% Polyester. Please check that this is what you wore.";
    expect(await screen.findByText('Polyester - Day 2 of 14')).toBeTruthy();
    expect(material()).toContain('100% Polyester');

    // Another night not logged yet, in the washout: cotton, and no warning she did not cause.
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: day16 } });
    expect(await screen.findByText('Washout - Day 2 of 14')).toBeTruthy();
    await waitFor(() => expect(material()).toContain('100% Cotton'));
    expect(screen.queryByText(mismatch)).toBeNull();

    // Her own choice stays when she moves to another night (and is checked against it).
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Sleepwear material'));
    await user.click(await screen.findByRole('option', { name: '100% Linen' }));
    await waitFor(() => expect(material()).toContain('100% Linen'));
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: day2 } });
    expect(await screen.findByText('Polyester - Day 2 of 14')).toBeTruthy();
    expect(material()).toContain('100% Linen');
    expect(screen.getByText(mismatch)).toBeTruthy();
  });

  it('puts the night she chooses in the address, so that a reload opens it, without opening the form again', async () => {
    const start = addDays(today, -20);
    const night5 = addDays(start, 4);
    const logs = { [night5]: storedLog({ date: night5, studyDay: 5, sleepScore: 71 }) };
    serve({ start, logs });
    const { router } = renderWithProviders(routes, { path: `/sleep/log?edit=${logs[night5]!.id}&date=${night5}` });
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();

    // another night, not logged: the address names it (it still named night 5, and a reload opened that)
    const night9 = addDays(start, 8);
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: night9 } });
    expect(await screen.findByRole('button', { name: 'Save Sleep Log' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(`?date=${night9}`));
    // what she types there stays: the address written by the form does not open it again
    const user = userEvent.setup();
    await fill(user, screen.getByLabelText('Sleep score'), '64');
    const night10 = addDays(start, 9);
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: night10 } });
    await waitFor(() => expect(router.state.location.search).toBe(`?date=${night10}`));
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('64');

    // an address from elsewhere (a link) still opens its night
    await act(() => router.navigate(`/sleep/log?date=${night5}`));
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('71');
  });

  it('keeps what she typed when a background reload of her profile fails', async () => {
    serve({});
    const { queryClient } = renderWithProviders(routes, { path: '/sleep/log' });
    const user = userEvent.setup();
    await fill(user, await screen.findByLabelText('Sleep score'), '83');

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient, ['auth', 'user']);
    await reloadQueries(queryClient, ['sleep', 'consent']);

    expect(screen.queryByText("We couldn't load your sleep log")).toBeNull();
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('83');
  });

  it('keeps the night she is editing when a reload of it fails', async () => {
    const yesterday = addDays(today, -1);
    const log = storedLog({ date: yesterday, sleepScore: 64 });
    serve({ start: addDays(today, -3), logs: { [yesterday]: log } });
    const { queryClient } = renderWithProviders(routes, { path: `/sleep/log?edit=${log.id}&date=${yesterday}` });
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    const user = userEvent.setup();
    const score = screen.getByLabelText('Sleep score') as HTMLInputElement;
    // edit mode shows first, the stored values follow (the form is reset to them after that
    // render): she edits what she sees (typed before it, a CI run read '6466')
    await waitFor(() => expect(score.value).toBe('64'));
    await user.clear(score);
    await fill(user, score, '66');

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient, ['sleep', 'log', yesterday]);

    expect(screen.getByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('66');
  });

  it('names a bad duration inline, keeps what she typed and sends nothing', async () => {
    serve({});
    renderWithProviders(routes, { path: '/sleep/log' });
    const user = userEvent.setup();
    const total = await screen.findByLabelText('Total sleep');
    await fill(user, total, 'seven hours');
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));

    expect(await screen.findByText('Use hours and minutes, like 7h32m, 15m or 1h25m')).toBeTruthy();
    expect(total.getAttribute('aria-invalid')).toBe('true');
    expect((total as HTMLInputElement).value).toBe('seven hours');
    expect(posts()).toHaveLength(0);
  });

  it('warns, without stopping the save, of durations that cannot all be right, and stops warning once they fit', async () => {
    servingSaves();
    renderWithProviders(routes, { path: '/sleep/log' });
    const user = userEvent.setup();
    const total = await screen.findByLabelText('Total sleep');
    const section = screen.getByRole('group', { name: 'Objective Sleep Data' });
    const warning = () => within(section).getByRole('status').textContent;
    expect(warning()).toBe('');

    await fill(user, total, '5h');
    await fill(user, screen.getByLabelText('Time in bed'), '3h20m');
    expect(warning()).toBe(
      'Total sleep (5h) is longer than time in bed (3h 20m). Please check them: the study leaves out durations that do not fit together.',
    );
    await fill(user, screen.getByLabelText('REM sleep'), '4h');
    await fill(user, screen.getByLabelText('Deep sleep'), '1h40m');
    expect(warning()).toBe(
      'Total sleep (5h) is longer than time in bed (3h 20m). REM and deep sleep together (5h 40m) are longer than total sleep (5h). Please check them: the study leaves out durations that do not fit together.',
    );

    // Not a refusal: she may save what her ring said.
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));
    expect(await within(toasts()).findByText('Sleep Log Saved')).toBeTruthy();
    expect(JSON.parse(String(posts()[0]![1]!.body))).toMatchObject({
      totalSleepMinutes: 300,
      timeInBedMinutes: 200,
      remMinutes: 240,
      deepMinutes: 100,
    });

    // Put right: no warning.
    const bed = screen.getByLabelText('Time in bed');
    await user.clear(bed);
    await fill(user, bed, '8h');
    await user.clear(screen.getByLabelText('REM sleep'));
    await fill(user, screen.getByLabelText('REM sleep'), '1h');
    expect(warning()).toBe('');
  });

  it('keeps comments past their limit whole, counts them near it, and says what is too long', async () => {
    serve({});
    renderWithProviders(routes, { path: '/sleep/log' });
    const user = userEvent.setup();
    const comments = (await screen.findByLabelText('Comments')) as HTMLTextAreaElement;
    expect(screen.getByText('Notes on hot flashes, emotions and mood.')).toBeTruthy();
    await fill(user, comments, 'a'.repeat(1_700));
    expect(await screen.findByText('1,700 of 2,000 characters')).toBeTruthy();
    await user.paste('b'.repeat(400));
    expect(comments.value).toHaveLength(2_100);
    expect(await screen.findByText('2,100 of 2,000 characters')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));
    expect(await screen.findByText('Comments must be at most 2,000 characters')).toBeTruthy();
    expect(comments.getAttribute('aria-invalid')).toBe('true');
    expect(comments.value).toHaveLength(2_100);
    expect(posts()).toHaveLength(0);
  });

  it('refuses a night before her study as she opens it, with no study night shown for it', async () => {
    const start = addDays(today, -10);
    serve({ start });
    renderWithProviders(routes, { path: `/sleep/log?date=${addDays(start, -3)}` });
    expect(await screen.findByText(`Your study started on ${longDate(start)}; nights before it are not part of the study.`)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Study phase' })).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it.each([
    ['an empty night', false],
    ['a night she logged', true],
  ])('refuses a night before her study as she chooses it in the date field from %s, before any save', async (_from, stored) => {
    const start = addDays(today, -10);
    const yesterday = addDays(today, -1);
    serve({ start, logs: stored ? { [yesterday]: storedLog({ date: yesterday, sleepScore: 71 }) } : {} });
    renderWithProviders(routes, { path: `/sleep/log?date=${yesterday}` });
    await screen.findByRole('button', { name: stored ? 'Update Sleep Log' : 'Save Sleep Log' });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: addDays(start, -3) } });
    expect(await screen.findByText(`Your study started on ${longDate(start)}; nights before it are not part of the study.`)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Study phase' })).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  it('updates a night she logged ahead that is after tomorrow now (her time zone moved west); a night not logged then is refused', async () => {
    const ahead = addDays(today, 2);
    const logs = { [ahead]: storedLog({ date: ahead, sleepScore: 71 }) };
    serve({
      start: addDays(today, -5),
      logs,
      put: (body) => jsonResponse(200, storedLog({ ...(body as Partial<SleepLog>), updatedAt: '2026-05-06T07:00:00.000Z' })),
    });
    renderWithProviders(routes, { path: `/sleep/log?edit=${logs[ahead]!.id}&date=${ahead}` });
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('71'));
    expect(screen.getByLabelText('Date').getAttribute('aria-invalid')).toBeNull();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Sleep score'));
    await fill(user, screen.getByLabelText('Sleep score'), '80');
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    expect(await within(toasts()).findByText('Sleep Log Updated')).toBeTruthy();
    expect(JSON.parse(String(fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')![1]!.body))).toMatchObject({
      date: ahead,
      sleepScore: 80,
    });

    // the night after it, not logged, is refused as she opens it
    cleanup();
    renderWithProviders(routes, { path: `/sleep/log?date=${addDays(today, 3)}` });
    expect(await screen.findByText(`You can log nights up to tomorrow (${longDate(addDays(today, 1))}).`)).toBeTruthy();
    // and no study night is shown for it
    expect(screen.queryByRole('region', { name: 'Study phase' })).toBeNull();
    expect(posts()).toHaveLength(0);
  });

  /** Last night stored (score 64), opened while its lookup fails, until `up()`. */
  async function lastNightLookupDown() {
    const yesterday = addDays(today, -1);
    let down = true;
    serve({
      start: addDays(today, -5),
      logs: { [yesterday]: storedLog({ date: yesterday, sleepScore: 64 }) },
      lookup: () => (down ? jsonResponse(503, { error: 'unavailable', message: 'busy' }) : undefined),
    });
    renderWithProviders(routes, { path: `/sleep/log?date=${yesterday}` });
    expect(await screen.findByText(lookupFailedText(yesterday), undefined, { timeout: 3_000 })).toBeTruthy();
    return { yesterday, up: () => (down = false) };
  }

  it('says when it could not check whether the night is logged, and looks again on Try again', async () => {
    const { yesterday, up } = await lastNightLookupDown();
    expect(screen.getByRole('button', { name: 'Save Sleep Log' })).toBeTruthy();
    up();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('64'));
    expect(screen.queryByText(lookupFailedText(yesterday))).toBeNull();
  });

  /** A lookup of `night` held until `answer()`; then answered as `logs` say. */
  function heldLookup(night: string) {
    let answer!: () => void;
    const held = new Promise<undefined>((resolve) => (answer = () => resolve(undefined)));
    return { answer, lookup: (date: string) => (date === night ? held : undefined) };
  }

  it('keeps what she types while the night is looked up over the stored night it finds, says so, and Update saves both', async () => {
    const yesterday = addDays(today, -1);
    const logs = { [yesterday]: storedLog({ date: yesterday, sleepScore: 64, comments: 'Stored comment' }) };
    const { answer, lookup } = heldLookup(yesterday);
    const puts: Record<string, unknown>[] = [];
    serve({
      start: addDays(today, -5),
      logs,
      lookup,
      put: (body) => {
        puts.push(body);
        return jsonResponse(200, storedLog({ ...logs[yesterday], ...body, updatedAt: new Date().toISOString() }));
      },
    });
    renderWithProviders(routes, { path: `/sleep/log?date=${yesterday}` });
    expect(await screen.findByText(`Looking up ${longDate(yesterday)}...`, undefined, { timeout: 3_000 })).toBeTruthy();
    const user = userEvent.setup();
    await fill(user, screen.getByLabelText('Sleep score'), '80');
    await fill(user, screen.getByLabelText('Comments'), 'Woke at 3, too hot');
    answer();
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('80');
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Woke at 3, too hot');
    expect((screen.getByLabelText('Total sleep') as HTMLInputElement).value).toBe('7h32m'); // the stored night's
    expect(within(toasts()).getByText(TYPED_OVER_STORED)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ sleepScore: 80, comments: 'Woke at 3, too hot', totalSleepMinutes: 452, restingHr: 56 });
  });

  it('keeps what she typed after a failed lookup over the stored night the next lookup finds', async () => {
    const { up } = await lastNightLookupDown();
    const user = userEvent.setup();
    await fill(user, screen.getByLabelText('Comments'), 'Night sweats at 2');
    up();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Night sweats at 2');
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('64');
    expect(within(toasts()).getByText(TYPED_OVER_STORED)).toBeTruthy();
  });

  it("from a stored night to one not logged: what she types during the lookup stays, the stored night's values do not", async () => {
    const nightA = addDays(today, -2);
    const nightB = addDays(today, -1);
    const logs = { [nightA]: storedLog({ date: nightA, sleepScore: 60 }) };
    const { answer, lookup } = heldLookup(nightB);
    serve({ start: addDays(today, -5), logs, lookup });
    renderWithProviders(routes, { path: `/sleep/log?date=${nightA}` });
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('60'), { timeout: 3_000 });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: nightB } });
    expect(await screen.findByText(`Looking up ${longDate(nightB)}...`)).toBeTruthy();
    await fill(userEvent.setup(), screen.getByLabelText('Comments'), 'First linen night');
    answer();
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe(''));
    expect(screen.queryByText(`Looking up ${longDate(nightB)}...`)).toBeNull();
    expect(screen.getByRole('button', { name: 'Save Sleep Log' })).toBeTruthy();
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('First linen night');
    expect(screen.queryByText(TYPED_OVER_STORED)).toBeNull();
  });

  it("says of a night that has not ended yet that the study counts it once saved after it ended; not of last night's", async () => {
    serve({ start: addDays(today, -5) });
    renderWithProviders(routes, { path: `/sleep/log?date=${addDays(today, 1)}` });
    // not saved yet: 'Log it', not 'Save it again'
    expect(await screen.findByText(NOT_ENDED_NOT_SAVED)).toBeTruthy();
    expect(screen.queryByText(NOT_ENDED_YET)).toBeNull();
    cleanup();
    renderWithProviders(routes, { path: `/sleep/log?date=${addDays(today, -2)}` });
    await screen.findByRole('button', { name: 'Save Sleep Log' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(NOT_ENDED_NOT_SAVED)).toBeNull();
    cleanup();
    // saved already, before it ended: 'Save it again'
    const ahead = addDays(today, 1);
    serve({ start: addDays(today, -5), logs: { [ahead]: storedLog({ date: ahead, sleepScore: 70 }) } });
    renderWithProviders(routes, { path: `/sleep/log?date=${ahead}` });
    expect(await screen.findByText(NOT_ENDED_YET, { exact: false })).toBeTruthy();
  });

  it('asks her to save again a night she saved before it ended, and sends the save with nothing changed', async () => {
    const night = addDays(today, -2);
    // saved at 21:00 UTC on its own evening: before 04:00 the next morning in every zone
    const logs = { [night]: storedLog({ date: night, sleepScore: 71, updatedAt: `${night}T21:00:00.000Z` }) };
    serve({ start: addDays(today, -5), logs });
    renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    expect(await screen.findByText(new RegExp(SAVED_BEFORE_IT_ENDED.slice(0, 40)))).toBeTruthy();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Update Sleep Log' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    cleanup();

    logs[night] = storedLog({ date: night, sleepScore: 71 });
    renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    expect(await screen.findByText(/Change anything and choose Update Sleep Log\./)).toBeTruthy();
    expect(screen.queryByText(new RegExp(SAVED_BEFORE_IT_ENDED.slice(0, 40)))).toBeNull();
  });

  it('keeps what she sent when a save fails, for when she comes back (she may have left while it was on its way); drops it once saved', async () => {
    const night = addDays(today, -3);
    const unavailable = () => jsonResponse(503, { error: 'unavailable', message: 'Sleepweave is temporarily unavailable.' });
    let answer = unavailable;
    serve({ start: addDays(today, -10), post: () => answer() });
    renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    const user = userEvent.setup();
    await fill(user, await screen.findByLabelText('Comments'), 'Woke at 3, too warm');
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));
    expect(await screen.findByText('Error saving sleep log')).toBeTruthy();
    expect(window.sessionStorage.getItem('sleepweave:draft:sleep-log')).toContain('Woke at 3, too warm');
    // she stayed, and saved again: the draft goes
    answer = () => jsonResponse(201, storedLog({ date: night, comments: 'Woke at 3, too warm' }));
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));
    expect(await screen.findByText('Sleep Log Saved')).toBeTruthy();
    expect(window.sessionStorage.getItem('sleepweave:draft:sleep-log')).toBeNull();
    cleanup();

    // another night, saved as she left: back, it is there to save
    const other = addDays(today, -4);
    answer = unavailable;
    renderWithProviders(routes, { path: `/sleep/log?date=${other}` });
    await fill(user, await screen.findByLabelText('Comments'), 'Cooler in linen');
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));
    expect(await screen.findByText('Error saving sleep log')).toBeTruthy();
    cleanup();
    renderWithProviders(routes, { path: `/sleep/log?date=${other}` });
    await waitFor(() => expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Cooler in linen'));
  });

  it('counts an emoji in her comments as one character, as the limit does', async () => {
    serve({});
    renderWithProviders(routes, { path: '/sleep/log' });
    const user = userEvent.setup();
    const comments = (await screen.findByLabelText('Comments')) as HTMLTextAreaElement;
    await fill(user, comments, '🔥'.repeat(1_800));
    expect(comments.value).toHaveLength(3_600);
    expect(await screen.findByText('1,800 of 2,000 characters')).toBeTruthy();
  });

  it('switches to edit mode with the stored night when the date is logged already (409)', async () => {
    const logs: Record<string, SleepLog> = {};
    serve({
      logs,
      post: () => {
        // Logged from another device meanwhile.
        logs[today] = storedLog({ sleepScore: 77 });
        return jsonResponse(409, { error: 'conflict', message: 'A sleep log for this date already exists.' });
      },
    });
    renderWithProviders(routes, { path: '/sleep/log' });
    const user = userEvent.setup();
    await fill(user, await screen.findByLabelText('Sleep score'), '90');
    await fill(user, screen.getByLabelText('Comments'), 'Woke at 3, hot');
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));

    expect(await within(toasts()).findByText('Entry already exists')).toBeTruthy();
    expect(within(toasts()).getByText('You already have a sleep log for this date. The form will switch to edit mode.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    // the stored night, with what she typed on top (it was dropped), still to save
    await waitFor(() => expect((screen.getByLabelText('Total sleep') as HTMLInputElement).value).toBe('7h32m'));
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('90');
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Woke at 3, hot');
    expect(posts()).toHaveLength(1);
  });

  it('on a 409 says so when the existing entry cannot be loaded, and keeps what she typed', async () => {
    serve({
      post: () => {
        // From now on the night's lookup fails.
        fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'The study service is busy.' }));
        return jsonResponse(409, { error: 'conflict', message: 'A sleep log for this date already exists.' });
      },
    });
    renderWithProviders(routes, { path: '/sleep/log' });
    const user = userEvent.setup();
    await fill(user, await screen.findByLabelText('Sleep score'), '90');
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));

    expect(await within(toasts()).findByText('Entry already exists')).toBeTruthy();
    expect(await within(toasts()).findByText('Error loading sleep log')).toBeTruthy();
    expect(within(toasts()).getByText('The study service is busy.')).toBeTruthy();
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('90');
  });

  it('says so when the night of an edit link is not in her list', async () => {
    serve({ start: addDays(today, -3), logs: {} });
    renderWithProviders(routes, { path: '/sleep/log?edit=9d7b7d8e-58b4-4b8f-9a55-3f0c7a1e2b91' });
    expect(await screen.findByText('That sleep log was not found.')).toBeTruthy();
    expect(screen.getByText('The form below shows the night that just ended.')).toBeTruthy();
    // The form is there for a new night.
    expect(screen.getByRole('button', { name: 'Save Sleep Log' })).toBeTruthy();
    cleanup();
    // on the day she joined, no night of hers has ended: the form shows her first, tonight
    serve({ start: today, logs: {} });
    renderWithProviders(routes, { path: '/sleep/log?edit=9d7b7d8e-58b4-4b8f-9a55-3f0c7a1e2b91' });
    expect(await screen.findByText('The form below shows your first night.')).toBeTruthy();
  });

  it('opens a stored night from the date parameter, warns about a mismatching material and updates it', async () => {
    const yesterday = addDays(today, -1);
    const logs = { [yesterday]: storedLog({ date: yesterday, sleepwearMaterial: '100% Linen', totalSleepMinutes: 420 }) };
    serve({
      start: addDays(today, -5),
      logs,
      put: (body) => jsonResponse(200, storedLog({ ...(body as Partial<SleepLog>), updatedAt: '2026-05-06T07:00:00.000Z' })),
    });
    renderWithProviders(routes, { path: `/sleep/log?edit=${logs[yesterday]!.id}&date=${yesterday}` });

    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    expect((screen.getByLabelText('Total sleep') as HTMLInputElement).value).toBe('7h');
    expect(screen.getByText('Polyester - Day 5 of 14')).toBeTruthy();
    // (yesterday's date is last night after 04:00, an earlier night before)
    const warning = screen.getByText(
      /^This doesn't match the phase of (last|this) night, which was for 100% Polyester\. Please check that this is what you wore\.$/,
    );
    // The warning describes the field (a screen reader reads it there); it does not block saving.
    expect(screen.getByLabelText('Sleepwear material').getAttribute('aria-describedby')).toContain(warning.id);
    expect(screen.getByLabelText('Sleepwear material').getAttribute('aria-invalid')).toBeNull();

    const user = userEvent.setup();
    const score = screen.getByLabelText('Sleep score');
    await user.clear(score);
    await fill(user, score, '88');
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    expect(await within(toasts()).findByText('Sleep Log Updated')).toBeTruthy();
    // An update stays in edit mode with what she saved.
    expect(screen.getByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('88');
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(String(put[0])).toBe(`/api/sleep/log/${logs[yesterday]!.id}`);
    expect(JSON.parse(String(put[1]!.body))).toMatchObject({
      date: yesterday,
      sleepScore: 88,
      totalSleepMinutes: 420,
      sleepwearMaterial: '100% Linen',
      // the version the form was filled from
      expectedUpdatedAt: logs[yesterday]!.updatedAt,
    });
  });

  it('when the night was saved elsewhere since she opened it (409): says so, shows that save with her changes on top, and Update then saves them', async () => {
    const yesterday = addDays(today, -1);
    const opened = storedLog({ date: yesterday, sleepScore: 60 });
    const logs = { [yesterday]: opened };
    const puts: Record<string, unknown>[] = [];
    serve({
      start: addDays(today, -5),
      logs,
      put: (body) => {
        puts.push(body);
        if (body.expectedUpdatedAt !== logs[yesterday]!.updatedAt) {
          return jsonResponse(409, {
            error: 'changed_meanwhile',
            message: 'This night was saved again, in another tab or on another device, since you opened it. Nothing was changed now.',
          });
        }
        return jsonResponse(200, storedLog({ ...(body as Partial<SleepLog>), updatedAt: '2026-05-07T07:00:00.000Z' }));
      },
    });
    renderWithProviders(routes, { path: `/sleep/log?edit=${opened.id}&date=${yesterday}` });
    await screen.findByRole('button', { name: 'Update Sleep Log' });
    // another tab saves a new score meanwhile
    logs[yesterday] = storedLog({ date: yesterday, sleepScore: 91, updatedAt: '2026-05-06T07:00:00.000Z' });

    const user = userEvent.setup();
    await fill(user, screen.getByLabelText('Comments'), 'Woke at 4');
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    expect(await within(toasts()).findByText('This night was changed elsewhere')).toBeTruthy();
    expect(puts[0]).toMatchObject({ expectedUpdatedAt: opened.updatedAt, comments: 'Woke at 4' });
    // the night is looked up again: the other tab's score, her comment on top
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('91'));
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Woke at 4');

    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    expect(await within(toasts()).findByText('Sleep Log Updated')).toBeTruthy();
    expect(puts[1]).toMatchObject({ expectedUpdatedAt: '2026-05-06T07:00:00.000Z', sleepScore: 91, comments: 'Woke at 4' });
  });

  it('after a refused save whose lookup again fails, another stored night opens as stored, not with what she typed on the first', async () => {
    const { nightA, nightB, logs } = twoStoredNights();
    let failA = false;
    serve({
      start: addDays(today, -5),
      logs,
      lookup: (date) => (failA && date === nightA ? jsonResponse(503, { error: 'unavailable', message: 'busy' }) : undefined),
      put: () => {
        failA = true;
        return jsonResponse(409, { error: 'changed_meanwhile', message: 'This night was saved again.' });
      },
    });
    const user = await typeOnNightA(nightA);
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    expect(await within(toasts()).findByText('This night was changed elsewhere')).toBeTruthy();
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([url]) => String(url) === `/api/sleep/log/${nightA}`).length).toBeGreaterThan(1),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // she moves on to another stored night
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: nightB } });
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('77'));
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('');
  });

  it('what she typed on one stored night does not follow her to another', async () => {
    const { nightA, nightB, logs } = twoStoredNights();
    serve({ start: addDays(today, -5), logs });
    await typeOnNightA(nightA);
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: nightB } });
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('77'));
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('');
  });

  it('after a refused save, another stored night chosen before the lookup again answers opens as stored', async () => {
    const { nightA, nightB, logs } = twoStoredNights();
    let hold: Promise<void> | null = null;
    let release!: () => void;
    serve({
      start: addDays(today, -5),
      logs,
      put: () => {
        hold = new Promise<void>((r) => (release = r));
        logs[nightA] = storedLog({
          id: '11111111-58b4-4b8f-9a55-3f0c7a1e2b90',
          date: nightA,
          sleepScore: 91,
          updatedAt: '2026-05-06T07:00:00.000Z',
        });
        return jsonResponse(409, { error: 'changed_meanwhile', message: 'This night was saved again.' });
      },
    });
    const served = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === `/api/sleep/log/${nightA}` && hold) await hold;
      return served(input, init);
    });
    const user = await typeOnNightA(nightA);
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    expect(await within(toasts()).findByText('This night was changed elsewhere')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: nightB } });
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('77'));
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('');
  });

  it('finds the night of an edit link without a date in her list', async () => {
    const yesterday = addDays(today, -1);
    const log = storedLog({ date: yesterday, sleepScore: 64 });
    serve({ start: addDays(today, -3), logs: { [yesterday]: log } });
    renderWithProviders(routes, { path: `/sleep/log?edit=${log.id}` });
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(yesterday);
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('64');
  });

  it('on the last night of a phase gives one instruction for tonight, and the morning after says tonight begins the next phase', async () => {
    // 09:00 in London on 2026-11-23: last night is the 22nd's, tonight the 23rd's
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T09:00:00Z') });
    const transition = () => screen.queryByRole('note');

    // Tonight is her 14th polyester night: wear polyester tonight, washout from tomorrow night.
    serve({ start: '2026-11-10' });
    renderWithProviders(routes, { path: '/sleep/log?date=2026-11-23' });
    expect(await screen.findByText('Polyester - Day 14 of 14')).toBeTruthy();
    expect(screen.getByText('Phase: Polyester (Day 14 of 14) — Tonight, please wear your polyester pyjamas.')).toBeTruthy();
    expect(transition()?.textContent).toContain(
      'Tonight completes your 14 nights in polyester. Great work! Tomorrow night, begin your washout phase with cotton.',
    );
    cleanup();

    // The morning after (the log opens on last night, night 14): tonight is the washout's
    // first night. It said "Tonight, please wear your polyester pyjamas" and "Tomorrow night,
    // begin your washout": she would have begun a night late.
    serve({ start: '2026-11-09' });
    renderWithProviders(routes, { path: '/sleep/log' });
    expect(await screen.findByRole('heading', { level: 2, name: nightName('2026-11-22') })).toBeTruthy();
    expect(screen.getByText('Polyester - Day 14 of 14')).toBeTruthy();
    expect(screen.getByText('Phase: Polyester (Day 14 of 14) — Sleepwear for last night: 100% Polyester.')).toBeTruthy();
    expect(transition()?.textContent).toContain(
      "You've completed 14 nights in polyester. Great work! Tonight, begin your washout phase with cotton.",
    );
    expect(screen.queryByText(/Tonight, please wear/)).toBeNull();
    cleanup();

    // Night 14 a week later: no transition now, and no "tonight" for it.
    serve({ start: '2026-11-02' });
    renderWithProviders(routes, { path: '/sleep/log?date=2026-11-15' });
    expect(await screen.findByText('Polyester - Day 14 of 14')).toBeTruthy();
    expect(screen.getByText('Phase: Polyester (Day 14 of 14) — Sleepwear for this night: 100% Polyester.')).toBeTruthy();
    expect(transition()).toBeNull();
  });

  it('shows Study Complete after day 42', async () => {
    serve({ start: addDays(today, -50) });
    renderWithProviders(routes, { path: '/sleep/log' });
    expect(await screen.findByText('Study Complete — Thank you for completing the 42-day sleep study!')).toBeTruthy();
    expect(screen.getAllByText('Study Complete').length).toBeGreaterThan(0);
    // no phase asks her to wear anything now: linen is not a mismatch
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Sleepwear material'));
    await user.click(await screen.findByRole('option', { name: '100% Linen' }));
    await waitFor(() => expect(screen.getByLabelText('Sleepwear material').textContent).toContain('100% Linen'));
    expect(screen.queryByText(/This doesn't match/)).toBeNull();
    expect(screen.getByLabelText('Sleepwear material').getAttribute('aria-describedby') ?? '').not.toContain('sleep-material-warning');
  });

  it('sends her to the consent page when she has not joined the study', async () => {
    serve({ consent: false, start: null });
    const { router } = renderWithProviders(routes, { path: '/sleep/log' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sleep/consent'));
  });

  it('on 401 while saving says she is logged out and goes to sign in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answeredAt = 0;
    serve({
      post: () => {
        answeredAt = Date.now();
        return jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
      },
    });
    const { router } = renderWithProviders(routes, { path: '/sleep/log' });
    const arrivedAt = arrivalAt(router, '/auth');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'Save Sleep Log' }));
    expect(await within(toasts()).findByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sleep/log');
    await act(() => vi.advanceTimersByTimeAsync(LOGGED_OUT_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(arrivedAt()! - answeredAt).toBeGreaterThanOrEqual(LOGGED_OUT_REDIRECT_MS);
  });

  /**
   * She fills in `night` (what `type` does) and saves it as her session ends (401): the app
   * goes to sign in, keeping it for the tab. The screen is closed afterwards.
   */
  async function savedAsHerSessionEnds(night: string, type: (user: ReturnType<typeof userEvent.setup>) => Promise<void>) {
    const { router } = renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    const user = userEvent.setup();
    await screen.findByLabelText('Sleep score');
    await type(user);
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    expect(router.state.location.state).toEqual({ from: `/sleep/log?date=${night}`, userId }); // signing in takes her back there
    cleanup();
    return user;
  }
  const sessionEnded = () => jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });

  it('gives her night back once she is signed in again, when her session ended as she saved it', async () => {
    const night = addDays(today, -5);
    const logs: Record<string, SleepLog> = {};
    let put: Record<string, unknown> | null = null;
    serve({
      start: addDays(today, -10),
      logs,
      post: sessionEnded,
      put: (body) => {
        put = body;
        return jsonResponse(200, storedLog({ ...(body as Partial<SleepLog>), date: night, updatedAt: '2026-05-06T07:00:00.000Z' }));
      },
    });
    const user = await savedAsHerSessionEnds(night, async (user) => {
      await fill(user, screen.getByLabelText('Sleep score'), '90');
      await fill(user, screen.getByLabelText('Comments'), 'Hot flash at 3');
    });

    // Signed in again, she comes back to the sleep log (on another night by default); the
    // night was logged elsewhere meanwhile: hers goes over it, still to save.
    logs[night] = storedLog({ date: night, sleepScore: 77 });
    renderWithProviders(routes, { path: '/sleep/log' });
    await waitFor(() => expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(night));
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('90'));
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Hot flash at 3');
    // taken once: no longer kept in the tab
    expect(window.sessionStorage.getItem('sleepweave:draft:sleep-log')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    await waitFor(() => expect(put).toMatchObject({ sleepScore: 90, comments: 'Hot flash at 3' }));
  });

  it('gives an update back after her session ended as the fields she changed over the night as it now is, saved against the one she typed over', async () => {
    const night = addDays(today, -5);
    const logs: Record<string, SleepLog> = { [night]: storedLog({ date: night, sleepScore: 60 }) };
    const puts: Record<string, unknown>[] = [];
    let signedIn = false;
    serve({
      start: addDays(today, -10),
      logs,
      put: (body) => {
        puts.push(body);
        if (!signedIn) return sessionEnded();
        if (body.expectedUpdatedAt !== logs[night]!.updatedAt) {
          return jsonResponse(409, { error: 'changed_meanwhile', message: 'This night was saved again.' });
        }
        logs[night] = storedLog({ ...(body as Partial<SleepLog>), date: night, updatedAt: '2026-05-07T07:00:00.000Z' });
        return jsonResponse(200, logs[night]);
      },
    });
    const { router } = renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Update Sleep Log' });
    await fill(user, screen.getByLabelText('Comments'), 'Woke at 4');
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    cleanup();

    // meanwhile another device saved a new score; she signs in again: its score, her comment
    logs[night] = storedLog({ date: night, sleepScore: 91, updatedAt: '2026-05-06T07:00:00.000Z' });
    signedIn = true;
    renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    await waitFor(() => expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Woke at 4'));
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('91');
    // saved against the night she typed over: refused, and said so; saved again, applied
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    expect(await within(toasts()).findByText('This night was changed elsewhere')).toBeTruthy();
    expect(puts[1]).toMatchObject({ comments: 'Woke at 4', expectedUpdatedAt: puts[0]!.expectedUpdatedAt });
    await user.click(screen.getByRole('button', { name: 'Update Sleep Log' }));
    expect(await within(toasts()).findByText('Sleep Log Updated')).toBeTruthy();
    expect(logs[night]).toMatchObject({ sleepScore: 91, comments: 'Woke at 4' });
  });

  it('keeps what she typed when her session ended as she chose another night (its lookup answers 401), and gives it back', async () => {
    const night = addDays(today, -5);
    const other = addDays(today, -4);
    let ended = false;
    serve({ start: addDays(today, -10), lookup: () => (ended ? sessionEnded() : undefined) });
    const { router } = renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    const user = userEvent.setup();
    await screen.findByLabelText('Sleep score');
    await fill(user, screen.getByLabelText('Sleep score'), '88');
    await fill(user, screen.getByLabelText('Comments'), 'Woke at 2');
    ended = true; // signed out in another tab
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: other } });
    expect(await within(toasts()).findByText('You are logged out. Logging in again...')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    cleanup();

    ended = false; // signed in again
    renderWithProviders(routes, { path: '/sleep/log' });
    await waitFor(() => expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(other));
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('88'));
    expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Woke at 2');
    expect(screen.getByRole('button', { name: 'Save Sleep Log' })).toBeTruthy();
  });

  it('shows the other night as stored, not what she typed over it, when that night turns out to be logged already', async () => {
    const night = addDays(today, -5);
    const other = addDays(today, -4);
    let ended = false;
    const logs = { [other]: storedLog({ date: other, sleepScore: 77, comments: 'Slept well in linen' }) };
    serve({ start: addDays(today, -10), logs, lookup: () => (ended ? sessionEnded() : undefined) });
    const { router } = renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    const user = userEvent.setup();
    await screen.findByLabelText('Sleep score');
    await fill(user, screen.getByLabelText('Comments'), 'Woke at 2');
    ended = true; // signed out in another tab, as she chooses a night she logged before
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: other } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    cleanup();

    ended = false; // signed in again: that night is stored, so it shows as stored (as choosing it does)
    renderWithProviders(routes, { path: '/sleep/log' });
    await waitFor(() => expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(other));
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Slept well in linen'));
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('77');
  });

  it("keeps nothing when the night she had open was a stored one: its values are not the next night's", async () => {
    const night = addDays(today, -5);
    const other = addDays(today, -4);
    let ended = false;
    const logs = { [night]: storedLog({ date: night, sleepScore: 77 }) };
    serve({ start: addDays(today, -10), logs, lookup: () => (ended ? sessionEnded() : undefined) });
    const { router } = renderWithProviders(routes, { path: `/sleep/log?date=${night}` });
    expect(await screen.findByRole('button', { name: 'Update Sleep Log' })).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('77'));
    ended = true;
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: other } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    expect(window.sessionStorage.getItem('sleepweave:draft:sleep-log')).toBeNull();
  });

  it('drops the night she was saving if she chooses another before it is looked up again', async () => {
    const night = addDays(today, -5);
    const other = addDays(today, -4);
    serve({ start: addDays(today, -10), post: sessionEnded });
    await savedAsHerSessionEnds(night, (user) => fill(user, screen.getByLabelText('Sleep score'), '64'));

    // back, her night's lookup slow to answer; she picks another night meanwhile
    const served = fetchMock.getMockImplementation()!;
    let answer!: () => void;
    const slow = new Promise<void>((resolve) => (answer = resolve));
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === `/api/sleep/log/${night}`) await slow;
      return served(input, init);
    });
    renderWithProviders(routes, { path: '/sleep/log' });
    await waitFor(() => expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(night));
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: other } });
    answer();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Sleep Log' })).toBeTruthy());
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('');
    // and back on that night, it is as stored (not logged): her draft is gone
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: night } });
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([url]) => String(url) === `/api/sleep/log/${night}`).length).toBeGreaterThan(1),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('');
  });

  it('gives her new night back as new, when it was not logged meanwhile', async () => {
    const night = addDays(today, -5);
    serve({ start: addDays(today, -10), post: sessionEnded });
    await savedAsHerSessionEnds(night, (user) => fill(user, screen.getByLabelText('Sleep score'), '64'));

    renderWithProviders(routes, { path: '/sleep/log' });
    await waitFor(() => expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe(night));
    await waitFor(() => expect((screen.getByLabelText('Sleep score') as HTMLInputElement).value).toBe('64'));
    expect(screen.getByRole('button', { name: 'Save Sleep Log' })).toBeTruthy();
  });

  it('shows a server refusal in a toast, and on its field when it names one', async () => {
    let answer = jsonResponse(503, { error: 'unavailable', message: 'Your profile is still being set up. Please try again in a moment.' });
    serve({ post: () => answer });
    renderWithProviders(routes, { path: '/sleep/log' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save Sleep Log' }));
    expect(await within(toasts()).findByText('Error saving sleep log')).toBeTruthy();
    expect(within(toasts()).getByText('Your profile is still being set up. Please try again in a moment.')).toBeTruthy();

    answer = jsonResponse(400, { error: 'validation', message: 'date: You can log nights up to tomorrow (2026-05-05).' });
    await user.click(screen.getByRole('button', { name: 'Save Sleep Log' }));
    expect(await screen.findByText('You can log nights up to tomorrow (2026-05-05).')).toBeTruthy();
    expect(screen.getByLabelText('Date').getAttribute('aria-invalid')).toBe('true');
  });
});
