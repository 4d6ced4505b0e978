import { calendarDateIn, NOT_CONFIRMED_MESSAGE, TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from '../../../lib/api-client';
import { keepDraft } from '../../../lib/drafts';
import { createQueryClient } from '../../../lib/query-client';
import { LOGGED_OUT_REDIRECT_MS } from '../../../lib/logged-out-redirect';
import {
  arrivalAt,
  deferred,
  jsonResponse,
  leavingAsks,
  pageResponse,
  refusesAction,
  reloadQueries,
  renderWithProviders,
} from '../../../testing/render';
import { UNCONFIRMED_REREAD_MS } from '../api/write-journal-entry';
import { JournalScreen } from './journal-screen';
import { maria } from '../../../testing/fixtures';

const dayBefore = (date: string) => new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const today = calendarDateIn('America/New_York', new Date());
const yesterday = dayBefore(today);

const entry = (id: string, date: string, texts: { affirmation?: string; gratitude?: string; forgiveness?: string }) => ({
  id,
  date,
  affirmation: '',
  gratitude: '',
  forgiveness: '',
  createdAt: `${date}T20:00:00.000Z`,
  ...texts,
});

const completeEntry = entry('0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a01', today, {
  affirmation: 'I am allowed to rest.',
  gratitude: 'A cool night.',
  forgiveness: 'I forgive my restless mind.',
});
const partialEntry = entry('0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a02', yesterday, { gratitude: 'My sister called.' });

const fetchMock = vi.fn<typeof fetch>();
let entries: unknown[];
let onPost: (body: unknown) => Response;

beforeEach(() => {
  entries = [];
  onPost = () => jsonResponse(201, completeEntry);
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(200, maria);
    if (url === '/api/journal/entries') return jsonResponse(200, entries);
    if (url === '/api/journal/entry' && init?.method === 'POST') return onPost(JSON.parse(String(init.body)));
    return jsonResponse(404, { error: 'not_found', message: url });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setUnauthorizedHandler(null);
  window.sessionStorage.clear();
});

const posts = () => fetchMock.mock.calls.filter(([url, init]) => url === '/api/journal/entry' && init?.method === 'POST');
const entryFetches = () => fetchMock.mock.calls.filter(([url]) => url === '/api/journal/entries').length;

/**
 * The journal (and Community, to leave it for) with an entry typed and saved, its answer held
 * until the test gives it (`answer`).
 */
async function savedWithAnswerHeld() {
  let answer: (response: Response) => void = () => {};
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(200, maria);
    if (url === '/api/journal/entries') return jsonResponse(200, entries);
    if (url === '/api/journal/entry' && init?.method === 'POST') return new Promise<Response>((resolve) => (answer = resolve));
    return jsonResponse(404, { error: 'not_found', message: url });
  });
  const { router } = renderWithProviders(
    [
      { path: '/journal', element: <JournalScreen /> },
      { path: '/community', element: <p>Community page</p> },
    ],
    { path: '/journal' },
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Gratitude'), 'The rain on the window.');
  await user.click(screen.getByRole('button', { name: 'Save Entry' }));
  await waitFor(() => expect(posts()).toHaveLength(1));
  return { router, user, answer: (response: Response) => answer(response) };
}

describe('JournalScreen', () => {
  it('shows the three 4-row text areas, the loading text, then the empty text', async () => {
    let answer: (r: Response) => void = () => {};
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/user' ? jsonResponse(200, maria) : new Promise<Response>((resolve) => (answer = resolve)),
    );
    renderWithProviders(<JournalScreen />);

    for (const label of ["Today's Affirmation", 'Gratitude', 'Forgiveness']) {
      const area = screen.getByLabelText(label);
      expect(area.tagName).toBe('TEXTAREA');
      expect(area.getAttribute('rows')).toBe('4');
    }
    expect(screen.getByRole('button', { name: 'Save Entry' })).toBeTruthy();
    expect(await screen.findByText('Loading entries...')).toBeTruthy();
    // the streak's room is kept while her entries load (the form was pushed down as it came), silent
    expect(screen.queryByRole('status', { name: 'Current streak' })).toBeNull();
    expect(document.querySelector('[aria-hidden="true"].invisible')?.textContent).toMatch(/^Current streak/);

    answer(jsonResponse(200, []));
    expect(await screen.findByText('No journal entries yet. Start your first entry above!')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Current streak' }).textContent).toMatch(/^Current streak 0 days Write today/);
  });

  it('says so when her entries cannot be loaded, and tries again on request', async () => {
    let failing = true;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/user') return jsonResponse(200, maria);
      if (failing) return jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
      return jsonResponse(200, [partialEntry]);
    });
    // The app's query client, which retries other queries once.
    renderWithProviders(<JournalScreen />, { queryClient: createQueryClient() });
    const user = userEvent.setup();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("We couldn't load your journal entries. Please try again.");
    // No retry on its own (docs/product.md §7: journal entries are not retried).
    expect(entryFetches()).toBe(1);

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('My sister called.')).toBeTruthy();
  });

  it('says that Sleepweave is temporarily unavailable when the journal service is down', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/user'
        ? jsonResponse(200, maria)
        : jsonResponse(503, { error: 'unavailable', message: TEMPORARILY_UNAVAILABLE_MESSAGE }),
    );
    renderWithProviders(<JournalScreen />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(TEMPORARILY_UNAVAILABLE_MESSAGE);
    expect(alert.textContent).not.toContain("We couldn't load your journal entries");
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it("lists her entries with long-form dates; 'Complete' only when all three are written; counts her streak", async () => {
    entries = [completeEntry, partialEntry];
    renderWithProviders(<JournalScreen />);

    const recent = screen.getByRole('region', { name: 'Recent Entries' });
    const cards = await within(recent).findAllByRole('article');
    expect(cards).toHaveLength(2);
    const longForm = (date: string) =>
      new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
        weekday: 'long',
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        timeZone: 'UTC',
      });
    expect(within(cards[0]!).getByRole('heading').textContent).toBe(longForm(today));
    expect(within(cards[0]!).queryByText('Complete')).toBeTruthy();
    expect(cards[0]!.textContent).toContain('I forgive my restless mind.');
    expect(within(cards[1]!).getByRole('heading').textContent).toBe(longForm(yesterday));
    expect(within(cards[1]!).queryByText('Complete')).toBeNull();
    expect(cards[1]!.textContent).toContain('My sister called.');
    // Blank reflections are not shown.
    expect(within(cards[1]!).queryByText('Forgiveness')).toBeNull();
    // her words in their own direction (Hebrew or Arabic right to left)
    expect(within(cards[1]!).getByText('My sister called.').getAttribute('dir')).toBe('auto');

    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Current streak' }).textContent).toMatch(/^Current streak 2 days You have written today/),
    );
  });

  it('left open past her midnight, the streak asks for today again (the page shown again)', async () => {
    // Monday 23 November, 23:58 in New York (only the date is faked)
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T04:58:00Z') });
    try {
      entries = [entry('0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a09', '2026-11-23', { gratitude: 'Tea with Ana.' })];
      renderWithProviders(<JournalScreen />);
      await waitFor(() =>
        expect(screen.getByRole('status', { name: 'Current streak' }).textContent).toMatch(/^Current streak 1 day You have written today/),
      );
      vi.setSystemTime(new Date('2026-11-24T05:00:30Z')); // 00:00:30 on Tuesday
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      await waitFor(() =>
        expect(screen.getByRole('status', { name: 'Current streak' }).textContent).toMatch(
          /^Current streak 1 day Write today to keep it going/,
        ),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts a streak that runs past the first page of entries whole, loading the older pages it needs', async () => {
    // three days, two entries each: the first page holds only the newest two days
    const twoADay = [today, yesterday, dayBefore(yesterday)].flatMap((date, d) => [
      entry(`0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1b${d}1`, date, { gratitude: 'Morning.' }),
      entry(`0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1b${d}2`, date, { gratitude: 'Evening.' }),
    ]);
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/user') return jsonResponse(200, maria);
      if (url === '/api/journal/entries') return pageResponse(twoADay.slice(0, 4), 'WyJvbGRlciJd');
      if (url === '/api/journal/entries?cursor=WyJvbGRlciJd') return pageResponse(twoADay.slice(4), null);
      return jsonResponse(404, { error: 'not_found', message: url });
    });
    renderWithProviders(<JournalScreen />);
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Current streak' }).textContent).toMatch(/^Current streak 3 days You have written today/),
    );
  });

  it('shows two entries of one day under one date heading, Complete when together they hold all three', async () => {
    entries = [
      {
        ...entry('0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a03', today, { gratitude: 'Tea at dawn.', forgiveness: 'Me.' }),
        createdAt: `${today}T21:00:00.000Z`,
      },
      entry('0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a04', today, { affirmation: 'I rest.' }),
      partialEntry,
    ];
    renderWithProviders(<JournalScreen />);
    const recent = screen.getByRole('region', { name: 'Recent Entries' });
    const cards = await within(recent).findAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getAllByRole('heading')).toHaveLength(1);
    expect(within(cards[0]!).getByText('Complete')).toBeTruthy();
    expect(cards[0]!.textContent).toContain('Tea at dawn.');
    expect(cards[0]!.textContent).toContain('I rest.');
    expect(within(cards[0]!).getAllByText(/^Written at/)).toHaveLength(2);
    expect(within(cards[1]!).queryByText('Complete')).toBeNull();
  });

  it('says the day with the time of an entry her clock now puts on another day (written before she moved zones)', async () => {
    // dated yesterday where she was (Paris, 04:30 on that day), which is the evening before by her New York clock now
    const moved = {
      ...entry('0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a09', yesterday, { gratitude: 'Croissants.' }),
      createdAt: `${yesterday}T03:30:00.000Z`,
    };
    entries = [moved];
    renderWithProviders(<JournalScreen />);
    const card = (await within(screen.getByRole('region', { name: 'Recent Entries' }).parentElement!).findAllByRole('article'))[0]!;
    const shown = within(card).getByText(/^Written at/).textContent!;
    const evening = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'America/New_York',
    }).format(new Date(moved.createdAt));
    expect(shown).toBe(`Written at ${evening}`);
    expect(shown).toMatch(/^Written at [A-Z][a-z]{2} \d{1,2}, /);
  });

  it('saves the entry: Saving... while pending, then the toast, an empty form and a refreshed list', async () => {
    let finish: (r: Response) => void = () => {};
    onPost = () => new Promise<Response>((resolve) => (finish = resolve)) as unknown as Response;
    renderWithProviders(<JournalScreen />);
    const user = userEvent.setup();
    await screen.findByText('No journal entries yet. Start your first entry above!');
    const fetchesBefore = entryFetches();

    await user.type(screen.getByLabelText("Today's Affirmation"), 'I am allowed to rest.');
    await user.type(screen.getByLabelText('Forgiveness'), '  I let go of yesterday.  ');
    // written and not saved: a reload or a closed tab asks first
    expect(leavingAsks()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));

    const pending = await screen.findByRole('button', { name: 'Saving...' });
    expect(refusesAction(pending)).toBe(true);
    // Read-only while it is saved (the form empties once it is): nothing typed meanwhile is lost.
    expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).readOnly).toBe(true);
    expect(JSON.parse(String(posts()[0]![1]!.body))).toEqual({
      affirmation: 'I am allowed to rest.',
      gratitude: '',
      forgiveness: 'I let go of yesterday.',
    });

    entries = [completeEntry];
    finish(jsonResponse(201, completeEntry));
    expect(await screen.findByText('Journal Entry Saved')).toBeTruthy();
    expect(screen.getByText('Your daily reflections have been recorded.')).toBeTruthy();
    expect((screen.getByLabelText("Today's Affirmation") as HTMLTextAreaElement).value).toBe('');
    expect((screen.getByLabelText('Forgiveness') as HTMLTextAreaElement).value).toBe('');
    await waitFor(() => expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).readOnly).toBe(false));
    await waitFor(() => expect(entryFetches()).toBeGreaterThan(fetchesBefore));
    expect(await screen.findByText('I forgive my restless mind.')).toBeTruthy();
    expect(leavingAsks()).toBe(false);
  });

  it('keeps what she wrote and says so when saving fails', async () => {
    onPost = () => jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
    renderWithProviders(<JournalScreen />);
    const user = userEvent.setup();

    await user.type(screen.getByLabelText('Gratitude'), 'The rain on the window.');
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));

    expect(await screen.findByText('Failed to save journal entry. Please try again.')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).value).toBe('The rain on the window.');
    expect(screen.getByRole('button', { name: 'Save Entry' })).toBeTruthy();
  });

  it('keeps what she wrote when the save fails after she left the screen, and gives it back when she returns; a saved one is not given back', async () => {
    const { router, user, answer } = await savedWithAnswerHeld();
    await act(() => router.navigate('/community'));
    expect(await screen.findByText('Community page')).toBeTruthy();
    await act(async () => answer(jsonResponse(503, { error: 'unavailable', message: 'The journal service is busy.' })));
    expect(await screen.findByText('The journal service is busy.')).toBeTruthy();

    await act(() => router.navigate('/journal'));
    await waitFor(() => expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).value).toBe('The rain on the window.'));
    // given back, still to save: a reload asks first (the draft is no longer kept)
    expect(leavingAsks()).toBe(true);
    // saved this time: not given back again
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    // the screen was made again, and the same entry keeps the key of its first try: if that
    // one was written and only its answer lost, it is not made twice
    const keys = posts().map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    await act(async () => answer(jsonResponse(201, completeEntry)));
    await waitFor(() => expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).value).toBe(''));
    await act(() => router.navigate('/community'));
    await act(() => router.navigate('/journal'));
    await screen.findByLabelText('Gratitude');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).value).toBe('');
  });

  it('gives her entry back when she returns while its save is still on its way (a service that hangs), with the same key; the list is read again after a failure', async () => {
    const { router, user, answer } = await savedWithAnswerHeld();
    await act(() => router.navigate('/community'));
    await act(() => router.navigate('/journal'));
    // back before any answer: what she wrote is there
    await waitFor(() => expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).value).toBe('The rain on the window.'));
    const listReads = entryFetches();
    await act(async () => answer(jsonResponse(504, { error: 'unavailable', message: NOT_CONFIRMED_MESSAGE })));
    expect(await screen.findByText(NOT_CONFIRMED_MESSAGE)).toBeTruthy();
    // it may have been made: her list is read again, and again later (a read at once can come before the entry)
    await waitFor(() => expect(entryFetches()).toBeGreaterThan(listReads));
    const readAtOnce = entryFetches();
    await act(async () => void (await new Promise((resolve) => setTimeout(resolve, UNCONFIRMED_REREAD_MS[0]! + 200))));
    expect(entryFetches()).toBeGreaterThan(readAtOnce);
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    const keys = posts().map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);
    expect(keys[1]).toBe(keys[0]);
  });

  it('gives the same words a new key once she cleared the entry given back: written again on purpose later, they are saved', async () => {
    onPost = () => jsonResponse(503, { error: 'unavailable', message: 'The journal service is busy.' });
    renderWithProviders(<JournalScreen />);
    const user = userEvent.setup();
    const gratitude = () => screen.getByLabelText('Gratitude') as HTMLTextAreaElement;
    const keys = () => posts().map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);

    await user.type(gratitude(), 'The rain on the window.');
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));
    expect(await screen.findByText('The journal service is busy.')).toBeTruthy();
    expect(gratitude().value).toBe('The rain on the window.');
    // sent again as it was given back: the same key (if the first was written, it is not made twice)
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    await waitFor(() => expect(gratitude().value).toBe('The rain on the window.'));
    expect(keys()[1]).toBe(keys()[0]);

    // she lets it go, then writes the same words again on purpose: a new entry
    await user.clear(gratitude());
    onPost = () => jsonResponse(201, completeEntry);
    await user.type(gratitude(), 'The rain on the window.');
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));
    await waitFor(() => expect(posts()).toHaveLength(3));
    expect(keys()[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys()[2]).not.toBe(keys()[0]);
  });

  it("toasts 'Unauthorized' when her session has ended, then goes to sign in after 0.5 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answeredAt = 0;
    onPost = () => {
      answeredAt = Date.now();
      return jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
    };
    // The app's handler for any other 401 leaves at once; a journal save must not use it.
    const leaveAtOnce = vi.fn();
    setUnauthorizedHandler(leaveAtOnce);
    const { router } = renderWithProviders(
      [
        { path: '/journal', element: <JournalScreen /> },
        { path: '/auth', element: <p>Sign in page</p> },
      ],
      { path: '/journal' },
    );
    const arrivedAt = arrivalAt(router, '/auth');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

    await user.type(screen.getByLabelText('Gratitude'), 'Tea.');
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));

    expect(await screen.findByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(screen.getByText('Unauthorized')).toBeTruthy();
    expect(leaveAtOnce).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/journal');
    await act(() => vi.advanceTimersByTimeAsync(LOGGED_OUT_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(arrivedAt()! - answeredAt).toBeGreaterThanOrEqual(LOGGED_OUT_REDIRECT_MS);
  });

  it('gives her back what she wrote once she is signed in again, and nobody else', async () => {
    onPost = () => jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' });
    const journalAndSignIn = [
      { path: '/journal', element: <JournalScreen /> },
      { path: '/auth', element: <p>Sign in page</p> },
    ];
    const { router } = renderWithProviders(journalAndSignIn, { path: '/journal' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Gratitude'), 'The cool linen sheets.');
    await user.type(screen.getByLabelText('Forgiveness'), 'My restless self.');
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    cleanup();

    // signed in again (the same user), back on the journal
    renderWithProviders(journalAndSignIn, { path: '/journal' });
    await waitFor(() => expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).value).toBe('The cool linen sheets.'));
    expect((screen.getByLabelText('Forgiveness') as HTMLTextAreaElement).value).toBe('My restless self.');
    cleanup();

    // taken once: the next visit starts empty
    renderWithProviders(journalAndSignIn, { path: '/journal' });
    expect(await screen.findByLabelText('Gratitude')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).value).toBe('');
  });

  it('never shows a draft to another user signing in in the same tab', async () => {
    keepDraft('journal', 'c0ffee00-0000-4000-8000-000000000001', { affirmation: '', gratitude: 'Not hers', forgiveness: '' });
    renderWithProviders(<JournalScreen />);
    expect(await screen.findByLabelText('Gratitude')).toBeTruthy();
    await waitFor(() => expect(window.sessionStorage.getItem('sleepweave:draft:journal')).toBeNull());
    expect((screen.getByLabelText('Gratitude') as HTMLTextAreaElement).value).toBe('');
    expect(Object.keys(window.sessionStorage).filter((key) => key.startsWith('sleepweave:draft:'))).toEqual([]);
  });

  it('keeps her entries on screen when a reload of the list fails', async () => {
    entries = [partialEntry];
    const { queryClient } = renderWithProviders(<JournalScreen />);
    expect(await screen.findByText('My sister called.')).toBeTruthy();

    fetchMock.mockImplementation(async () => jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient, ['journal', 'entries']);

    expect(screen.getByText('My sister called.')).toBeTruthy();
    expect(screen.queryByText("We couldn't load your journal entries. Please try again.")).toBeNull();
  });

  it('refuses an empty entry and a reflection over 2,000 characters without calling the server', async () => {
    renderWithProviders(<JournalScreen />);
    const user = userEvent.setup();

    await user.type(screen.getByLabelText('Gratitude'), '   ');
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "Please write at least one of Today's Affirmation, Gratitude or Forgiveness.",
    );
    expect(document.activeElement).toBe(screen.getByLabelText("Today's Affirmation"));

    const long = 'a'.repeat(2001);
    await user.click(screen.getByLabelText('Forgiveness'));
    await user.paste(long);
    expect(screen.getByText('2,001 of 2,000 characters')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save Entry' }));
    expect(await screen.findByText('Forgiveness must be at most 2,000 characters')).toBeTruthy();
    expect((screen.getByLabelText('Forgiveness') as HTMLTextAreaElement).value).toBe(long);
    expect(posts()).toHaveLength(0);
  });

  it('counts characters as the server does: an emoji is one', async () => {
    renderWithProviders(<JournalScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Gratitude'));
    await user.paste('🌙'.repeat(1800));
    expect(screen.getByText('1,800 of 2,000 characters')).toBeTruthy();
  });

  it('loads older entries a page at a time (X-Next-Cursor), a day split across pages under one date, then no more button', async () => {
    const earlierToday = {
      ...entry('0b8f3c0e-7a51-4f0e-9d55-3f7e2b6c1a03', today, { affirmation: 'Morning calm.' }),
      createdAt: `${today}T08:00:00.000Z`,
    };
    const older = deferred<Response>();
    let secondPageFails = true;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/user') return jsonResponse(200, maria);
      if (url === '/api/journal/entries') return pageResponse([completeEntry], 'c1');
      if (url === '/api/journal/entries?cursor=c1') {
        if (secondPageFails) return jsonResponse(500, { error: 'internal', message: 'Something went wrong. Please try again.' });
        return older.promise;
      }
      return jsonResponse(404, { error: 'not_found', message: url });
    });
    const user = userEvent.setup();
    renderWithProviders(<JournalScreen />);
    const recent = screen.getByRole('region', { name: 'Recent Entries' });

    await user.click(await within(recent).findByRole('button', { name: 'Load older entries' }));
    expect((await within(recent).findByRole('alert')).textContent).toBe('Older entries could not be loaded. Please try again.');
    expect(within(recent).getAllByRole('article')).toHaveLength(1);

    secondPageFails = false;
    await user.click(within(recent).getByRole('button', { name: 'Load older entries' }));
    expect(refusesAction(await within(recent).findByRole('button', { name: 'Loading older entries...' }))).toBe(true);
    older.resolve(pageResponse([earlierToday, partialEntry], null));

    await within(recent).findByText('My sister called.');
    const cards = within(recent).getAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(cards[0]!.textContent).toContain('I forgive my restless mind.');
    expect(cards[0]!.textContent).toContain('Morning calm.');
    expect(within(recent).queryByRole('button', { name: /older entries/ })).toBeNull();
    expect(within(recent).queryByRole('alert')).toBeNull();
  });
});
