// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreateMessageRequest, STUDY_TEAM_ID, STUDY_TEAM_NAME } from '@sleepweave/contracts';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, leavingAsks, queryNotificationsDelivered, renderWithProviders } from '../../../testing/render';
import { CATCH_UP_TIMEOUT_MS } from '../api/get-thread';
import { ThreadScreen } from './thread-screen';

/** Stands in for the browser's WebSocket: records what the screen sends. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  receive(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const threadId = '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10';
const me = '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f';
const ada = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const fetchMock = vi.fn<typeof fetch>();
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function message(id: string, senderId: string, body: string, sender: object, createdAt = minutesAgo(90)) {
  return { id, threadId, senderId, body, createdAt, sender: { firstName: null, email: null, profileImageUrl: null, ...sender } };
}
const detail = (messages: object[]) => ({
  thread: { id: threadId, name: 'Linen week one', isDirect: false, pinned: false, memberCount: 3, createdAt: minutesAgo(3000) },
  messages,
  currentUserId: me,
  after: 'WyJjdXJzb3IiXQ',
  before: null,
});

beforeEach(() => {
  FakeSocket.made = [];
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

/** The Idempotency-Key of each message sent, in order. */
const sentKeys = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);

/** Sends whose answers are lost (the connection dropped) until `posted()`, then posted as the message `id` saying `body`. */
function lostThenPosted(id: string, body: string) {
  let lost = true;
  fetchMock.mockImplementation(async (_input, init) => {
    if (init?.method !== 'POST') return jsonResponse(200, detail([]));
    if (lost) throw new TypeError('Failed to fetch');
    return jsonResponse(201, message(id, me, body, {}));
  });
  return { posted: () => void (lost = false) };
}

describe('ThreadScreen', () => {
  it('shows her own messages as You and others by first name, e-mail name or User, oldest first', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        200,
        detail([
          message(
            '0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b1',
            ada,
            'Linen helped <b>me</b>',
            { firstName: 'Ada', email: 'ada' },
            minutesAgo(3 * 1440),
          ),
          message(
            '0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b2',
            '2a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
            'Same',
            { email: 'quiet.reader' },
            minutesAgo(120),
          ),
          message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b3', '3a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', 'Hi', {}, minutesAgo(7)),
          message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4', me, 'Mine', { firstName: 'Maya' }, minutesAgo(0)),
        ]),
      ),
    );
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByRole('heading', { name: 'Linen week one' })).toBeTruthy();
    const items = within(screen.getByLabelText('Messages')).getAllByRole('listitem');
    // No aria-label on an item: it would hide the message text from some screen readers.
    expect(items.map((li) => li.getAttribute('aria-label'))).toEqual([null, null, null, null]);
    expect(items.map((li) => li.textContent)).toEqual([
      'AAda3d agoLinen helped <b>me</b>',
      'Qquiet.reader2h agoSame',
      'UUser7m agoHi',
      'YouJust nowMine',
    ]);
    // a message is text, never HTML
    expect(items[0]!.textContent).toContain('Linen helped <b>me</b>');
    expect(items[0]!.querySelector('b')).toBeNull();
    // (Her own on the right: web/e2e/community.spec.ts, where the layout is real.)
  });

  it("marks the study team's message by its sender, never a member who took its name", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        200,
        detail([
          message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5c1', STUDY_TEAM_ID, 'Welcome', { firstName: STUDY_TEAM_NAME }, minutesAgo(60)),
          // a name taken before names were refused "Sleepweave" (libs/contracts identity.ts)
          message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5c2', ada, 'Verify your account at ...', { firstName: STUDY_TEAM_NAME }, minutesAgo(5)),
        ]),
      ),
    );
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    await screen.findByRole('heading', { name: 'Linen week one' });
    const [team, member] = within(screen.getByLabelText('Messages')).getAllByRole('listitem');
    expect(within(team!).getByText('Study team')).toBeTruthy();
    expect(within(member!).queryByText('Study team')).toBeNull();
  });

  it('joins the thread over the socket and refetches when a new message is announced', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('No messages yet. Start the conversation!')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toEqual([{ type: 'join_thread', threadId }]));
    expect(FakeSocket.made[0]!.url).toBe(`ws://${window.location.host}/ws`);

    fetchMock.mockResolvedValue(
      jsonResponse(200, detail([message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b9', ada, 'Fresh news', { firstName: 'Ada' }, minutesAgo(0))])),
    );
    act(() =>
      FakeSocket.made[0]!.receive({
        type: 'new_message',
        threadId,
        message: { id: '0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b9', senderId: ada, createdAt: minutesAgo(0) },
      }),
    );
    expect(await screen.findByText('Fresh news')).toBeTruthy();
    // Only what is new since the answer she has (issue #16), not the whole thread again.
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe(`/api/community/thread/${threadId}?after=WyJjdXJzb3IiXQ`);
  });

  it('loads the thread again when a catch-up finds fewer members: a deleted account took her messages with her', async () => {
    const hers = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b1', ada, 'Ada was here', { firstName: 'Ada' });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([hers])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('Ada was here')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toEqual([{ type: 'join_thread', threadId }]));

    const fewer = (messages: object[]) => ({ ...detail(messages), thread: { ...detail([]).thread, memberCount: 2 } });
    const mine = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b2', me, 'Still here', {}, minutesAgo(0));
    fetchMock.mockImplementation(async () => jsonResponse(200, fewer([mine])));
    act(() =>
      FakeSocket.made[0]!.receive({
        type: 'new_message',
        threadId,
        message: { id: '0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b2', senderId: me, createdAt: minutesAgo(0) },
      }),
    );
    await waitFor(() => expect(screen.queryByText('Ada was here')).toBeNull());
    expect(screen.getByText('Still here')).toBeTruthy();
    expect(lastUrl()).toBe(`/api/community/thread/${threadId}`);
  });

  /** The thread open with a message of a member who is about to delete her account. */
  async function openWithHerMessage(id: string) {
    const hers = message(id, ada, 'My private story', {}, minutesAgo(5));
    fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([hers])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('My private story')).toBeTruthy();
    return hers;
  }
  const lastUrl = () => fetchMock.mock.calls.map(([url]) => String(url)).at(-1);

  it('loads the thread again, whole, when told a deleted account’s messages left it', async () => {
    await openWithHerMessage('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5c3');
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('?after='))).toBe(true));

    fetchMock.mockImplementation(async () => jsonResponse(200, detail([])));
    act(() => FakeSocket.made[0]!.receive({ type: 'thread_changed', threadId }));
    await waitFor(() => expect(screen.queryByText('My private story')).toBeNull());
    expect(lastUrl()).toBe(`/api/community/thread/${threadId}`);
  });

  it('loads the thread whole when it joins again (a reconnection): a thread_changed sent while it was down is not sent again', async () => {
    const hers = await openWithHerMessage('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5c5');
    fetchMock.mockImplementation(async (input) => jsonResponse(200, detail(String(input).includes('?after=') ? [hers] : [])));
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('?after='))).toBe(true));
    expect(screen.getByText('My private story')).toBeTruthy(); // the first join catches up only
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
    await waitFor(() => expect(screen.queryByText('My private story')).toBeNull());
    expect(lastUrl()).toBe(`/api/community/thread/${threadId}`);
  });

  it('loads the thread whole after a catch-up under way lands, not before it (landing after, it would bring her message back)', async () => {
    const hers = await openWithHerMessage('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5c4');
    // a catch-up sent before her deletion, answered late, with her message in it
    let answerCatchUp!: (response: Response) => void;
    fetchMock.mockImplementation((input) =>
      String(input).includes('?after=')
        ? new Promise<Response>((resolve) => (answerCatchUp = resolve))
        : Promise.resolve(jsonResponse(200, detail([]))),
    );
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
    await waitFor(() => expect(answerCatchUp).toBeTypeOf('function'));
    act(() => FakeSocket.made[0]!.receive({ type: 'thread_changed', threadId }));
    // (a reload made at once would have landed by now)
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    answerCatchUp(jsonResponse(200, detail([hers])));
    await waitFor(() => expect(screen.queryByText('My private story')).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('My private story')).toBeNull();
  });

  it('answers a burst of new-message notices with one catch-up after the one under way, not one request each', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    await screen.findByText('No messages yet. Start the conversation!');
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toEqual([{ type: 'join_thread', threadId }]));
    const catchUps = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('?after=')).length;
    const answers: ((response: Response) => void)[] = [];
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => answers.push(resolve)));
    const notice = (i: number) => ({
      type: 'new_message',
      threadId,
      message: { id: `0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a${String(i).padStart(3, '0')}`, senderId: ada, createdAt: minutesAgo(0) },
    });
    // the answer to her join, then twenty messages posted at once
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
    act(() => {
      for (let i = 0; i < 20; i++) FakeSocket.made[0]!.receive(notice(i));
    });
    await waitFor(() => expect(catchUps()).toBe(1));
    const burst = Array.from({ length: 20 }, (_, i) =>
      message(`0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a${String(i).padStart(3, '0')}`, ada, `Burst ${i}`, { firstName: 'Ada' }, minutesAgo(0)),
    );
    await act(async () => answers.shift()!(jsonResponse(200, detail(burst.slice(0, 5)))));
    // one more for all that came meanwhile, and no other
    await waitFor(() => expect(catchUps()).toBe(2));
    await act(async () => answers.shift()!(jsonResponse(200, detail(burst))));
    expect(await screen.findByText('Burst 19')).toBeTruthy();
    expect(within(screen.getByLabelText('Messages')).getAllByRole('listitem')).toHaveLength(20);
    expect(catchUps()).toBe(2);
  });

  it('gives up on a catch-up that gets no answer in time, so that it does not hold up the next', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    await screen.findByText('No messages yet. Start the conversation!');
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toEqual([{ type: 'join_thread', threadId }]));
    const catchUps = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('?after=')).length;
    // the first catch-up's request hangs (a network gone away) until its time is up
    const timeUp = new AbortController();
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockReturnValue(timeUp.signal);
    const fresh = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5d1', ada, 'Missed while away', { firstName: 'Ada' }, minutesAgo(0));
    fetchMock.mockImplementation((url, init) =>
      String(url).includes('?after=') && catchUps() === 1
        ? new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))
        : Promise.resolve(jsonResponse(200, detail([fresh]))),
    );
    try {
      act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
      await waitFor(() => expect(catchUps()).toBe(1));
      expect(timeout).toHaveBeenCalledWith(CATCH_UP_TIMEOUT_MS);
      // the connection is made again meanwhile, and its join asks for the thread (whole, after a
      // reconnection), once the catch-up under way has given up
      const wholeLoads = () => fetchMock.mock.calls.filter(([url]) => String(url) === `/api/community/thread/${threadId}`).length;
      const loaded = wholeLoads();
      act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
      expect(catchUps()).toBe(1);
      expect(wholeLoads()).toBe(loaded);
      act(() => timeUp.abort(new DOMException('no answer', 'TimeoutError')));
      await waitFor(() => expect(wholeLoads()).toBe(loaded + 1));
      expect(await screen.findByText('Missed while away')).toBeTruthy();
    } finally {
      timeout.mockRestore();
    }
  });

  it('cancels a reload of the whole thread it stopped waiting for, so that it cannot land after the catch-up', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([])));
      const { queryClient } = renderWithProviders(<ThreadScreen threadId={threadId} />);
      await screen.findByText('No messages yet. Start the conversation!');
      await waitFor(() => expect(FakeSocket.made[0]?.sent).toEqual([{ type: 'join_thread', threadId }]));
      let reloadAborted = false;
      const fresh = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5d3', ada, 'Caught up', { firstName: 'Ada' }, minutesAgo(0));
      fetchMock.mockImplementation((url, init) =>
        String(url).includes('?after=')
          ? Promise.resolve(jsonResponse(200, detail([fresh])))
          : new Promise<Response>((_resolve, reject) =>
              init?.signal?.addEventListener('abort', () => {
                reloadAborted = true;
                reject(init.signal!.reason);
              }),
            ),
      );
      // a reload of the whole thread hangs (a network gone away)
      void queryClient.invalidateQueries({ queryKey: ['community', 'thread', threadId] });
      act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
      await act(() => vi.advanceTimersByTimeAsync(CATCH_UP_TIMEOUT_MS));
      expect(await screen.findByText('Caught up')).toBeTruthy();
      expect(reloadAborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Enter sends, Shift+Enter makes a new line; Send is disabled when empty and says Sending...', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([])));
    let release: (r: Response) => void = () => {};
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);

    const user = userEvent.setup();
    await user.type(box, '\u200B\u3164'); // nothing to see: still empty
    expect(send.disabled).toBe(true);
    await user.clear(box);
    await user.type(box, 'Line one{Shift>}{Enter}{/Shift}Line two');
    expect(box.value).toBe('Line one\nLine two');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    expect(send.disabled).toBe(false);

    fetchMock.mockImplementation((_input, init) =>
      init?.method === 'POST'
        ? new Promise<Response>((resolve) => {
            release = resolve;
          })
        : Promise.resolve(jsonResponse(200, detail([]))),
    );
    await user.type(box, '{Enter}');
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(post[0]).toBe('/api/community/message');
    expect(JSON.parse(String(post[1]?.body))).toEqual({ threadId, body: 'Line one\nLine two' });

    // The box empties as it goes: she writes her next message meanwhile, and that stays.
    expect(box.value).toBe('');
    await user.type(box, 'And a third');
    await act(async () => release(jsonResponse(201, message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b7', me, 'Line one\nLine two', {}))));
    expect(await screen.findByRole('button', { name: 'Send' })).toBeTruthy();
    expect(box.value).toBe('And a third');
  });

  it('warns of a message too long at the length the schema refuses it, an emoji counted as one character by both', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, detail([])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    const user = userEvent.setup();
    const moons = (n: number) => '🌙'.repeat(n); // two UTF-16 units each
    expect(CreateMessageRequest.safeParse({ threadId, body: moons(4001) }).success).toBe(false);
    expect(CreateMessageRequest.safeParse({ threadId, body: moons(4000) }).success).toBe(true);
    await user.click(box);
    await user.paste(moons(4001));
    expect(await screen.findByText('Message must be at most 4,000 characters (now 4,001).')).toBeTruthy();
    expect(send.disabled).toBe(true);
    await user.clear(box);
    await user.paste(moons(4000));
    await waitFor(() => expect(send.disabled).toBe(false));
  });

  it('keeps the text and toasts when sending fails', async () => {
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'POST' ? jsonResponse(500, { error: 'internal', message: 'x' }) : jsonResponse(200, detail([])),
    );
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    const user = userEvent.setup();
    await user.type(box, 'Please keep me{Enter}');
    expect(await screen.findByText('Failed to send message. Please try again.')).toBeTruthy();
    expect(box.value).toBe('Please keep me');
  });

  it('gives a message that failed back in the box when she returns to the thread (she had left it), not one that went; sent from there with the key of its first try', async () => {
    let failing = true;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/user') return jsonResponse(200, maria);
      if (init?.method !== 'POST') return jsonResponse(200, detail([]));
      return failing
        ? jsonResponse(500, { error: 'internal', message: 'x' })
        : jsonResponse(201, message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b8', me, 'Please keep me', {}));
    });
    const thread = () => renderWithProviders(<ThreadScreen threadId={threadId} />);
    thread();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Message'), 'Please keep me{Enter}');
    expect(await screen.findByText('Failed to send message. Please try again.')).toBeTruthy();
    cleanup();

    thread();
    const box = await screen.findByLabelText<HTMLTextAreaElement>('Message');
    await waitFor(() => expect(box.value).toBe('Please keep me'));
    // in the box, not sent: a reload or a closed tab asks first
    expect(leavingAsks()).toBe(true);
    failing = false;
    await user.type(box, '{Enter}');
    await waitFor(() => expect(box.value).toBe(''));
    expect(leavingAsks()).toBe(false);
    // had the first been written with its answer lost, the second would find it, not post it twice
    const keys = sentKeys();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    cleanup();
    thread();
    await screen.findByLabelText('Message');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Message').value).toBe('');
  });

  it('gives her message back once she is signed in again, when her session ended as she sent it', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/user') return jsonResponse(200, maria);
      return init?.method === 'POST'
        ? jsonResponse(401, { error: 'unauthorized', message: 'You are not signed in.' })
        : jsonResponse(200, detail([]));
    });
    const screens = [
      { path: '/community/thread/:id', element: <ThreadScreen threadId={threadId} /> },
      { path: '/auth', element: <p>Sign in page</p> },
    ];
    const { router } = renderWithProviders(screens, { path: `/community/thread/${threadId}` });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Message'), 'Linen week one, night three{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 3_000 });
    cleanup();

    renderWithProviders(screens, { path: `/community/thread/${threadId}` });
    await waitFor(() => expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Linen week one, night three'));
  });

  it('puts a message that failed back into the box, ahead of what she wrote while it was on its way', async () => {
    let fail: (r: Response) => void = () => {};
    fetchMock.mockImplementation((_input, init) =>
      init?.method === 'POST'
        ? new Promise<Response>((resolve) => {
            fail = resolve;
          })
        : Promise.resolve(jsonResponse(200, detail([]))),
    );
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    const user = userEvent.setup();
    await user.type(box, 'First thought{Enter}');
    await screen.findByRole('button', { name: 'Sending...' });
    await user.type(box, 'Second');
    await act(async () => fail(jsonResponse(500, { error: 'internal', message: 'x' })));
    await waitFor(() => expect(box.value).toBe('First thought\nSecond'));
  });

  it('sends a message given back after a lost answer again with the same Idempotency-Key (posted once), and the next one with a new key', async () => {
    const answers = lostThenPosted('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b7', 'Cool night');
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    const user = userEvent.setup();
    await user.type(box, 'Cool night{Enter}');
    await waitFor(() => expect(box.value).toBe('Cool night'));
    answers.posted();
    await user.type(box, '{Enter}');
    await waitFor(() => expect(box.value).toBe(''));
    await user.type(box, 'Cool night{Enter}');
    await waitFor(() => expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(3));
    const keys = sentKeys();
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('gives the same words a new key once she cleared the message given back: sent on purpose later, they are posted', async () => {
    const answers = lostThenPosted('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b9', 'Good night all');
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    const user = userEvent.setup();
    await user.type(box, 'Good night all{Enter}');
    await waitFor(() => expect(box.value).toBe('Good night all'));
    // she sees it went after all (it came over Live), and clears the box
    await user.clear(box);
    answers.posted();
    // later, the same words on purpose
    await user.type(box, 'Good night all{Enter}');
    await waitFor(() => expect(box.value).toBe(''));
    const keys = sentKeys();
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it.each([
    [429, { error: 'too_many_requests', message: 'You can send up to 30 messages a minute. Please wait a moment and try again.' }],
    [503, { error: 'unavailable', message: 'Your profile is still being set up. Please try again in a moment.' }],
  ])('keeps the text and toasts the server message on %i', async (status, body) => {
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'POST' ? jsonResponse(status, body) : jsonResponse(200, detail([])),
    );
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    const user = userEvent.setup();
    await user.type(box, 'Please keep me{Enter}');
    expect(await screen.findByText(body.message)).toBeTruthy();
    expect(box.value).toBe('Please keep me');
  });

  it('announces a new message from someone else in a polite live region, not her own or the first load', async () => {
    const first = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5c1', ada, 'Earlier', { firstName: 'Ada' });
    fetchMock.mockResolvedValue(jsonResponse(200, detail([first])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('Earlier')).toBeTruthy();
    const region = screen.getByTestId('new-message-announcer');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toHaveLength(1));

    const fresh = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5c2', ada, 'Fresh news', { firstName: 'Ada' }, minutesAgo(0));
    fetchMock.mockResolvedValue(jsonResponse(200, detail([first, fresh])));
    act(() =>
      FakeSocket.made[0]!.receive({ type: 'new_message', threadId, message: { id: fresh.id, senderId: ada, createdAt: fresh.createdAt } }),
    );
    await waitFor(() => expect(region.textContent).toBe('New message from Ada: Fresh news'));

    const mine = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5c3', me, 'My reply', {}, minutesAgo(0));
    fetchMock.mockResolvedValue(jsonResponse(200, detail([first, fresh, mine])));
    act(() =>
      FakeSocket.made[0]!.receive({ type: 'new_message', threadId, message: { id: mine.id, senderId: me, createdAt: mine.createdAt } }),
    );
    expect(await screen.findByText('My reply')).toBeTruthy();
    expect(region.textContent).toBe('New message from Ada: Fresh news');
  });

  it('scrolls to a new message while she is at the end, and leaves her where she reads further up; her own always', async () => {
    const first = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5f1', ada, 'Earlier', { firstName: 'Ada' });
    fetchMock.mockResolvedValue(jsonResponse(200, detail([first])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('Earlier')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toHaveLength(1));
    // the list's layout, as a browser would give it: 2,000 px of messages in a 400 px window
    const list = screen.getByRole('region', { name: 'Messages' });
    Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => 2000 });
    Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 400 });
    const arrives = async (id: string, senderId: string, body: string, shown: object[]) => {
      fetchMock.mockResolvedValue(jsonResponse(200, detail(shown)));
      act(() => FakeSocket.made[0]!.receive({ type: 'new_message', threadId, message: { id, senderId, createdAt: minutesAgo(0) } }));
      expect(await screen.findByText(body)).toBeTruthy();
    };

    // reading further up
    list.scrollTop = 300;
    list.dispatchEvent(new Event('scroll'));
    const second = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5f2', ada, 'While you read', { firstName: 'Ada' }, minutesAgo(0));
    await arrives(second.id, ada, 'While you read', [first, second]);
    expect(list.scrollTop).toBe(300);
    // ... and a button at the foot of the list says so, and takes her down to it
    const below = screen.getByRole('button', { name: '1 new message' });
    fireEvent.click(below);
    expect(list.scrollTop).toBe(2000);
    await waitFor(() => expect(screen.queryByRole('button', { name: /new message/ })).toBeNull());
    // ... at once, so that she follows what comes next (a smooth scroll stopped short in a busy thread)
    const next = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5f5', ada, 'Right after', { firstName: 'Ada' }, minutesAgo(0));
    Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => 2100 });
    await arrives(next.id, ada, 'Right after', [first, second, next]);
    await waitFor(() => expect(list.scrollTop).toBe(2100));
    expect(screen.queryByRole('button', { name: /new message/ })).toBeNull();
    Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => 2000 });
    list.scrollTop = 300;
    list.dispatchEvent(new Event('scroll'));

    // her own message goes to the end
    const mine = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5f3', me, 'Mine', {}, minutesAgo(0));
    await arrives(mine.id, me, 'Mine', [first, second, next, mine]);
    await waitFor(() => expect(list.scrollTop).toBe(2000));

    // at the end (as a browser clamps it), the next one scrolls too
    list.scrollTop = 1600;
    list.dispatchEvent(new Event('scroll'));
    const third = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5f4', ada, 'At the end', { firstName: 'Ada' }, minutesAgo(0));
    await arrives(third.id, ada, 'At the end', [first, second, next, mine, third]);
    await waitFor(() => expect(list.scrollTop).toBe(2000));
  });

  it('announces the first message of an empty thread', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, detail([])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('No messages yet. Start the conversation!')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toHaveLength(1));

    const fresh = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5e1', ada, 'Hello all', { email: 'ada' }, minutesAgo(0));
    fetchMock.mockResolvedValue(jsonResponse(200, detail([fresh])));
    act(() =>
      FakeSocket.made[0]!.receive({ type: 'new_message', threadId, message: { id: fresh.id, senderId: ada, createdAt: fresh.createdAt } }),
    );
    await waitFor(() => expect(screen.getByTestId('new-message-announcer').textContent).toBe('New message from ada: Hello all'));
  });

  it('says Live only once the gateway has let her join; a join refused for now is paused and asked again', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, detail([])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    await screen.findByText('No messages yet. Start the conversation!');
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toEqual([{ type: 'join_thread', threadId }]));
    // The socket is open, but the gateway is still asking the community service.
    expect(screen.queryByText('Live')).toBeNull();

    act(() =>
      FakeSocket.made[0]!.receive({ type: 'error', threadId, message: 'Live updates are not available right now. Please try again.' }),
    );
    expect(screen.getByText('Live updates paused, trying again...')).toBeTruthy();
    expect(screen.queryByText('Live')).toBeNull();
    // Asked again on the same connection (after 0.4-0.6 s), and live once it is let in.
    await waitFor(() => expect(FakeSocket.made[0]!.sent).toHaveLength(2), { timeout: 2_000 });
    expect(FakeSocket.made[0]!.sent[1]).toEqual({ type: 'join_thread', threadId });
    expect(FakeSocket.made).toHaveLength(1);
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
    expect(screen.getByText('Live')).toBeTruthy();
    expect(screen.queryByText('Live updates paused, trying again...')).toBeNull();
  });

  it('says so when the gateway ends the connection with her session', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, detail([])));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toHaveLength(1));
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
    expect(screen.getByText('Live')).toBeTruthy();
    act(() => FakeSocket.made[0]!.onclose?.({ code: 4401 }));
    expect(screen.getByText('Not live: your session has ended')).toBeTruthy();
    expect(screen.queryByText('Live')).toBeNull();
  });

  it('keeps the conversation and the live connection when a reload fails', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(200, detail([message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5d1', ada, 'Still here', { firstName: 'Ada' })])),
    );
    const { queryClient } = renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('Still here')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toHaveLength(1));

    fetchMock.mockResolvedValue(jsonResponse(503, { error: 'unavailable', message: 'down' }));
    act(() =>
      FakeSocket.made[0]!.receive({
        type: 'new_message',
        threadId,
        message: { id: '0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5d2', senderId: ada, createdAt: minutesAgo(0) },
      }),
    );
    await waitFor(() => expect(queryClient.getQueryState(['community', 'thread', threadId])?.status).toBe('error'));
    await act(() => queryNotificationsDelivered()); // the screen hears of it in TanStack Query's next batch

    expect(screen.getByText('Still here')).toBeTruthy();
    expect(screen.queryByText('The thread could not be loaded. Please check your connection and try again.')).toBeNull();
    expect(FakeSocket.made[0]!.readyState).toBe(1);
  });

  it('loads earlier messages (?before=) above the ones shown, while there are any', async () => {
    const user = userEvent.setup();
    const newest = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5e1', ada, 'Newest of 500', { firstName: 'Ada' }, minutesAgo(10));
    const older = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5e0', ada, 'From last week', { firstName: 'Ada' }, minutesAgo(9000));
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { ...detail([newest]), before: 'WyJiZWZvcmUiXQ' }));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('Newest of 500')).toBeTruthy();

    fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([older])));
    await user.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    expect(await screen.findByText('From last week')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === `/api/community/thread/${threadId}?before=WyJiZWZvcmUiXQ`)).toBe(true);
    const items = screen.getAllByRole('listitem').map((li) => li.textContent ?? '');
    expect(items.findIndex((t) => t.includes('From last week'))).toBeLessThan(items.findIndex((t) => t.includes('Newest of 500')));
    // No earlier ones left: the button goes, and the focus goes to the list, not the page.
    expect(screen.queryByRole('button', { name: 'Load earlier messages' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Messages' })));
  });

  it('keeps her place when earlier messages come in above what she reads', async () => {
    const newest = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5e1', ada, 'Newest of 500', { firstName: 'Ada' }, minutesAgo(10));
    const older = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5e0', ada, 'From last week', { firstName: 'Ada' }, minutesAgo(9000));
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { ...detail([newest]), before: 'WyJiZWZvcmUiXQ' }));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('Newest of 500')).toBeTruthy();
    // at the top of 1,000 px of messages in a 400 px window, reading the oldest shown
    const list = screen.getByRole('region', { name: 'Messages' });
    // the earlier page adds 800 px above her, once it is in the list
    Object.defineProperty(list, 'scrollHeight', {
      configurable: true,
      get: () => (list.textContent?.includes('From last week') ? 1800 : 1000),
    });
    Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 400 });
    list.scrollTop = 0;
    list.dispatchEvent(new Event('scroll'));

    fetchMock.mockResolvedValueOnce(jsonResponse(200, detail([older])));
    fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    expect(await screen.findByText('From last week')).toBeTruthy();
    await waitFor(() => expect(list.scrollTop).toBe(800)); // the message she read, where it was
  });

  it('loads the thread again as far back as she had it, when it is loaded again whole (a reconnection)', async () => {
    const newest = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5e1', ada, 'Newest of 500', { firstName: 'Ada' }, minutesAgo(10));
    const older = message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5e0', ada, 'From last week', { firstName: 'Ada' }, minutesAgo(9000));
    const page = () => jsonResponse(200, { ...detail([newest]), before: 'WyJiZWZvcmUiXQ' });
    fetchMock.mockImplementation(async (url) => (String(url).includes('?before=') ? jsonResponse(200, detail([older])) : page()));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('Newest of 500')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    expect(await screen.findByText('From last week')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.made[0]?.sent).toHaveLength(1));
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId }));
    act(() => FakeSocket.made[0]!.receive({ type: 'joined', threadId })); // joined again: loaded whole
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('?before=')).length).toBe(2));
    expect(screen.getByText('From last week')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load earlier messages' })).toBeNull();
  });

  it('says the thread could not be loaded, its heading no longer loading, and loads it on Try again', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { error: 'internal', message: 'Something went wrong.' }));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(screen.getByRole('heading', { name: 'Loading thread...' })).toBeTruthy();
    expect(await screen.findByText('The thread could not be loaded. Something went wrong on our side. Please try again.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Community');
    expect(FakeSocket.made).toHaveLength(0);

    fetchMock.mockResolvedValue(
      jsonResponse(200, detail([message('0e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5f1', ada, 'Back again', { firstName: 'Ada' })])),
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Back again')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(detail([]).thread.name);
  });

  it('says Thread not found or access denied on 404, without a socket', async () => {
    fetchMock.mockResolvedValue(jsonResponse(404, { error: 'not_found', message: 'Thread not found or access denied' }));
    renderWithProviders(<ThreadScreen threadId={threadId} />);
    expect(await screen.findByText('Thread not found or access denied')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to Community/ }).getAttribute('href')).toBe('/community');
    expect(FakeSocket.made).toHaveLength(0);
  });
});
