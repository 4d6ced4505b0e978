// @vitest-environment happy-dom
import { addDays, type SleepLog } from '@sleepweave/contracts';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { night } from './sleep-log.fixture';
import { sleepStudyTile, StudyTodayCard } from './study-today-card';
import { studyProgress } from './study-progress';

const fetchMock = vi.fn<typeof fetch>();
const zone = 'America/New_York';
// Monday 23 November 2026, 07:00 in New York (only Date is faked; timers run).
const now = new Date('2026-11-23T12:00:00Z');

function serve(start: string | null, logs: SleepLog[]) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/sleep/consent') {
      return jsonResponse(200, {
        hasConsent: start !== null,
        consentVersion: start ? '1.0' : null,
        acceptedAt: null,
        studyStartDate: start,
      });
    }
    if (url === '/api/auth/user') {
      return jsonResponse(200, {
        id: '6f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a1',
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
        studyStartDate: start,
      });
    }
    if (url === '/api/sleep/logs') return jsonResponse(200, logs);
    return jsonResponse(404, { error: 'not_found', message: url });
  });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now });
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('StudyTodayCard (home)', () => {
  it("shows day, phase, tonight's material, nights logged, and one tap to log last night", async () => {
    const start = addDays('2026-11-23', -15); // tonight is night 16
    // and tonight's, logged ahead: counted apart, as it has not ended
    serve(start, [night(start, { studyDay: 1 }), night(addDays(start, 1), { studyDay: 2 }), night('2026-11-23', { studyDay: 16 })]);
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('Day 16 of 42')).toBeTruthy();
    expect(screen.getByText('Washout - Day 2 of 14')).toBeTruthy();
    expect(screen.getByText('Tonight · Mon 23 → Tue 24 Nov')).toBeTruthy();
    expect(screen.getByText('100% Cotton')).toBeTruthy();
    expect(screen.getByText('2 of 15 so far, 1 logged ahead')).toBeTruthy();
    expect(screen.getByText('Last night (Sun 22 → Mon 23 Nov) is not logged yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log last night' }).getAttribute('href')).toBe('/sleep/log?date=2026-11-22');
  });

  it('names the morning to log her first night by its day, also when she joined after midnight', async () => {
    serve('2026-11-23', []);
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('Log your first night when you wake up on Tuesday morning.')).toBeTruthy();
    cleanup();
    // 01:00 on Monday in New York: her study starts today, and its first night is tonight's, logged on Tuesday
    vi.setSystemTime(new Date('2026-11-23T06:00:00Z'));
    serve('2026-11-23', []);
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('Log your first night when you wake up on Tuesday morning.')).toBeTruthy();
    expect(screen.getByText('Your first night is tonight')).toBeTruthy();
  });

  it('says last night is logged, with a link to it', async () => {
    const start = addDays('2026-11-23', -3);
    const logged = night('2026-11-22', { studyDay: 3 });
    serve(start, [logged]);
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText(/Last night \(Sun 22 → Mon 23 Nov\) is logged\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View or edit it' }).getAttribute('href')).toBe(`/sleep/log?edit=${logged.id}&date=2026-11-22`);
    expect(screen.queryByRole('link', { name: 'Log last night' })).toBeNull();
  });

  it('asks her to save last night again when she saved it before it ended (the study counts it once saved after), also on the morning after night 42', async () => {
    const start = addDays('2026-11-23', -3);
    // saved on Sunday evening, logged ahead
    const ahead = night('2026-11-22', { studyDay: 3, updatedAt: '2026-11-23T01:00:00.000Z' });
    serve(start, [ahead]);
    renderWithProviders(<StudyTodayCard />);
    const text =
      'Last night (Sun 22 → Mon 23 Nov) was saved before it ended, so the study does not count it yet. Check it and save it again.';
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Save last night again' }).getAttribute('href')).toBe(
      `/sleep/log?edit=${ahead.id}&date=2026-11-22`,
    );
    expect(screen.queryByText(/is logged\./)).toBeNull();
    cleanup();

    const finished = addDays('2026-11-22', -41);
    serve(finished, [night('2026-11-22', { studyDay: 42, updatedAt: '2026-11-23T01:00:00.000Z' })]);
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('Study Complete')).toBeTruthy();
    expect(screen.getByText(text)).toBeTruthy();
  });

  it('says her first night is logged when she logged it ahead, and calls it tomorrow night when her study starts tomorrow', async () => {
    // 19:00 on Sunday 22 November in New York; her study starts on Monday 23 (she joined further east)
    vi.setSystemTime(new Date('2026-11-23T00:00:00Z'));
    const ahead = night('2026-11-23', { studyDay: 1 });
    serve('2026-11-23', [ahead]);
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('Tomorrow night · Mon 23 → Tue 24 Nov')).toBeTruthy();
    expect(screen.getByText('Your first night is tomorrow night, 1 logged ahead')).toBeTruthy();
    expect(
      screen.getByText(
        /Your first night \(Mon 23 → Tue 24 Nov\) is logged already: save it again when you wake up on Tuesday morning, as the study counts a night saved once it has ended\./,
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View or edit it' }).getAttribute('href')).toBe(`/sleep/log?edit=${ahead.id}&date=2026-11-23`);
    expect(screen.queryByText(/Log your first night/)).toBeNull();
  });

  it('asks for night 42 on the morning after it, as for every other night', async () => {
    const start = addDays('2026-11-22', -41); // last night was night 42
    serve(start, [night(start, { studyDay: 1 })]);
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('Study Complete')).toBeTruthy();
    expect(screen.getByText('Last night (Sun 22 → Mon 23 Nov) is not logged yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log last night' }).getAttribute('href')).toBe('/sleep/log?date=2026-11-22');
  });

  it('follows the clock on a page left open: at 04:00 tonight is the next night (a tab kept overnight said Tonight of the night before)', async () => {
    vi.setSystemTime(new Date('2026-11-24T02:00:00Z')); // Monday 21:00 in New York
    serve(addDays('2026-11-23', -13), []); // tonight is night 14, the last in polyester
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('Tonight · Mon 23 → Tue 24 Nov')).toBeTruthy();
    expect(screen.getByText('100% Polyester')).toBeTruthy();

    vi.setSystemTime(new Date('2026-11-25T02:00:00Z')); // Tuesday 21:00, the tab shown again
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(await screen.findByText('Tonight · Tue 24 → Wed 25 Nov')).toBeTruthy();
    expect(screen.getByText('100% Cotton')).toBeTruthy();
    expect(screen.getByText('Day 15 of 42')).toBeTruthy();
  });

  it('offers the earlier nights she missed, the newest three as links, and counts the rest; night 42 still after its morning', async () => {
    const start = addDays('2026-11-23', -15); // tonight is night 16; nights 1-15 have ended
    const logs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 15].map((day) => night(addDays(start, day - 1), { studyDay: day }));
    serve(start, logs);
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('Earlier nights not logged yet. You can still log them:')).toBeTruthy();
    const links = ['Sat 21 → Sun 22 Nov', 'Fri 20 → Sat 21 Nov', 'Thu 19 → Fri 20 Nov'];
    for (const [i, name] of links.entries()) {
      expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(`/sleep/log?date=${addDays('2026-11-21', -i)}`);
    }
    expect(screen.getByText('and 2 more')).toBeTruthy(); // nights 11 and 10
    cleanup();

    // two days after night 42, which she missed
    vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
    const finished = addDays('2026-11-22', -41);
    serve(
      finished,
      Array.from({ length: 41 }, (_, i) => night(addDays(finished, i), { studyDay: i + 1 })),
    );
    renderWithProviders(<StudyTodayCard />);
    expect(await screen.findByText('An earlier night is not logged yet. You can still log it:')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sun 22 → Mon 23 Nov' }).getAttribute('href')).toBe('/sleep/log?date=2026-11-22');
  });

  it('shows nothing before she joins', async () => {
    serve(null, []);
    const { container } = renderWithProviders(<StudyTodayCard />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/sleep/consent', expect.anything()));
    await vi.waitFor(() => expect(container.querySelector('[role="status"]')).toBeNull());
    expect(container.textContent).toBe('');
  });
});

describe('the Sleep Study tile', () => {
  it('reads by where she is: not joined, in the study, complete', () => {
    const progress = (start: string | null) =>
      studyProgress({ hasConsent: start !== null, studyStartDate: start, logs: [], timezone: zone, now });
    expect(sleepStudyTile(progress(null))).toEqual({
      description: 'Take part in the 42-day sleepwear study and log how you sleep each night.',
      to: '/sleep/consent',
    });
    expect(sleepStudyTile(progress('2026-11-08'))).toEqual({
      description: 'Day 16 of 42, washout phase: your nights, charts and weekly report.',
      to: '/sleep/dashboard',
    });
    expect(sleepStudyTile(progress('2026-10-01')).description).toBe(
      'You completed the 42-night study. Look back at your nights and how you slept in each fabric.',
    );
  });
});
