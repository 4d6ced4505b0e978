import { THREAD_NOT_FOUND_MESSAGE, type Message } from '@sleepweave/contracts';
import { ArrowDown, ArrowLeft, X } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { usePageTitle } from '../../../app/page-title';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { CHECK_CONNECTION, EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { isApiRequestError } from '../../../lib/api-client';
import { useThread } from '../api/get-thread';
import { useThreadLive } from '../api/use-thread-live';
import { useNow } from '../hooks/use-now';
import { messagePreview, senderName } from '../utils/display';
import { relativeTime } from '../utils/relative-time';
import { EarlierMessages } from './earlier-messages';
import { MessageComposer } from './message-composer';
import { MessageItem } from './message-item';

/** react-router keeps its history index in history.state: 0 means we came from outside. */
function canGoBack(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/** The messages of others after `seen` (the newest one she has been shown; null: none). */
function newSince(messages: Message[], seen: string | null, currentUserId: string): Message[] {
  const seenAt = messages.findIndex((m) => m.id === seen);
  const after = seenAt === -1 ? messages.slice(-1) : messages.slice(seenAt + 1);
  return after.filter((m) => m.senderId !== currentUserId);
}

/** /community/thread/{id}: the conversation, live while the screen is open. */
export function ThreadScreen({ threadId }: { threadId: string }) {
  const navigate = useNavigate();
  const thread = useThread(threadId);
  const notFound = isApiRequestError(thread.error) && thread.error.status === 404;
  // A failed reload keeps the conversation (and its live connection); only a 404 ends it.
  const live = useThreadLive(threadId, thread.data !== undefined && !notFound);
  const now = useNow();
  const list = useRef<HTMLElement>(null);
  usePageTitle(thread.data?.thread.name);
  const newest = thread.data?.messages.at(-1)?.id;
  const [announcement, setAnnouncement] = useState('');
  /** The newest message id already shown: undefined before the first load, null for none. */
  const [shownNewest, setShownNewest] = useState<string | null | undefined>(undefined);

  /** Whether she was at the newest message (within a line or two) before the list changed. */
  const atNewest = useRef(true);
  /**
   * The newest message when she scrolled up from the end (null while she is at it): what
   * others wrote since is said on a button at the foot of the list, which takes her down.
   * The live region said it to a screen reader only; on a phone nothing showed it.
   */
  const [leftAt, setLeftAt] = useState<string | null>(null);
  const newestIsHers = thread.data?.messages.at(-1)?.senderId === thread.data?.currentUserId;
  // Earlier messages put above what she reads (Load earlier messages; the thread loaded again
  // as far back as she had it) keep her place: the list stays as far from its end as it was.
  // (At the top, the browser's own anchoring does not hold it: she was taken to the oldest.)
  const oldest = thread.data?.messages[0]?.id;
  const shownOldest = useRef(oldest);
  const fromEnd = useRef(0);
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    if (oldest !== shownOldest.current && shownOldest.current !== undefined && !atNewest.current) {
      el.scrollTop = el.scrollHeight - fromEnd.current;
    }
    shownOldest.current = oldest;
    fromEnd.current = el.scrollHeight - el.scrollTop;
  });

  // Scroll to the newest message on opening, when she sends one, and when one arrives while
  // she is at the end; not while she reads further up (the new one is announced).
  useEffect(() => {
    const el = list.current;
    if (el && newest && (atNewest.current || newestIsHers)) el.scrollTop = el.scrollHeight;
  }, [newest, newestIsHers]);

  // Announce (politely) what others wrote since the last look; not on opening, not her own.
  // Adjusted while rendering, when the newest message changes (react.dev, "Adjusting some
  // state when a prop changes"), so the announcement and the list change together.
  if (thread.data && (newest ?? null) !== shownNewest) {
    setShownNewest(newest ?? null);
    const fresh = shownNewest === undefined ? [] : newSince(thread.data.messages, shownNewest, thread.data.currentUserId);
    const latest = fresh.at(-1);
    if (latest) {
      const said = `${senderName(latest.sender)}: ${messagePreview(latest.body)}`;
      setAnnouncement(fresh.length === 1 ? `New message from ${said}` : `${fresh.length} new messages. Latest from ${said}`);
    }
  }

  const unseen =
    thread.data && leftAt !== null && newest !== undefined && newest !== leftAt
      ? newSince(thread.data.messages, leftAt, thread.data.currentUserId).length
      : 0;

  const close = () => {
    if (canGoBack()) void navigate(-1);
    else void navigate(paths.community.root);
  };

  return (
    // On a short screen (a phone on its side: 311 px under the nav bar) it fits the screen,
    // smaller all round: at 28rem the message box began below it and the page scrolled too.
    // Shorter still (400% zoom: 191 px under the nav bar) the page scrolls instead: fitted,
    // the messages had 32 px between the title and the message box.
    <div className="mx-auto flex h-[calc(100dvh-4rem-1px)] min-h-[28rem] w-full max-w-3xl flex-col px-3 py-4 sm:px-6 sm:py-6 short:min-h-[19rem] short:py-2">
      <div className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-3xl border border-night-100 bg-white/80 shadow-sm shadow-night-900/5">
        <header className="flex items-center justify-between gap-3 border-b border-night-100 px-4 py-3 sm:px-6 short:py-1">
          <div className="min-w-0">
            {/* the whole name (at most 120 characters) up to three lines, a long one filled a third of a
                phone's screen; on a short screen one line, for the messages (the title attribute and a
                screen reader have it whole) */}
            <h1
              dir="auto"
              title={thread.data?.thread.name}
              className="line-clamp-3 text-xl font-semibold [overflow-wrap:anywhere] text-night-950 sm:text-2xl short:line-clamp-1 short:text-lg"
            >
              {thread.data?.thread.name ?? (thread.isPending ? 'Loading thread...' : 'Community')}
            </h1>
            {thread.data ? (
              <p className="flex items-center gap-2 text-sm text-night-600" aria-live="polite">
                {thread.data.thread.memberCount.toLocaleString('en-US')} {thread.data.thread.memberCount === 1 ? 'member' : 'members'}
                {live === 'live' ? (
                  <span className="inline-flex items-center gap-1 text-emerald-700">
                    <span aria-hidden="true" className="size-2 rounded-full bg-emerald-600" /> Live
                  </span>
                ) : live === 'reconnecting' ? (
                  <span className="text-sand-700">Reconnecting...</span>
                ) : live === 'paused' ? (
                  <span className="text-sand-700">Live updates paused, trying again...</span>
                ) : live === 'ended' ? (
                  <span className="text-sand-700">Not live: your session has ended</span>
                ) : null}
              </p>
            ) : null}
          </div>
          <Button variant="ghost" size="icon" onClick={close} aria-label="Close thread">
            <X aria-hidden="true" className="size-6" />
          </Button>
        </header>

        {thread.isPending ? (
          <LoadingState text="Loading messages..." className="min-h-0 flex-1" />
        ) : notFound ? (
          <ErrorState
            text={THREAD_NOT_FOUND_MESSAGE}
            className="min-h-0 flex-1"
            action={
              <Link
                to={paths.community.root}
                className="inline-flex items-center gap-2 font-medium text-night-700 underline underline-offset-4"
              >
                <ArrowLeft aria-hidden="true" className="size-4" /> Back to Community
              </Link>
            }
          />
        ) : thread.data === undefined ? (
          <ErrorState
            text={`The thread could not be loaded. ${CHECK_CONNECTION}`}
            error={thread.error}
            className="min-h-0 flex-1"
            onRetry={() => void thread.refetch()}
            retrying={thread.isFetching}
          />
        ) : (
          <>
            {/*
              The list scrolls on its own, so it must take keyboard focus to be scrolled
              without a mouse (WCAG 2.1.1; axe: scrollable-region-focusable). It is a region
              named Messages, so a screen reader says what got focus. No ARIA widget role
              fits a list of messages, and jsx-a11y only accepts tabIndex with one.
            */}
            <div className="relative flex min-h-0 flex-1 flex-col">
              <section
                ref={list}
                className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6"
                // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a focusable scrolling region, see above
                tabIndex={0}
                aria-label="Messages"
                onScroll={(event) => {
                  const el = event.currentTarget;
                  fromEnd.current = el.scrollHeight - el.scrollTop;
                  atNewest.current = el.scrollHeight - el.scrollTop - el.clientHeight < 96;
                  if (!atNewest.current && leftAt === null) setLeftAt(newest ?? '');
                  if (atNewest.current && leftAt !== null) setLeftAt(null);
                }}
              >
                {/* once the last earlier page is in, its button goes: the focus goes to the list, not the page */}
                {thread.data.before ? (
                  <EarlierMessages threadId={threadId} onAllLoaded={() => list.current?.focus({ preventScroll: true })} />
                ) : null}
                {thread.data.messages.length === 0 ? (
                  <EmptyState text="No messages yet. Start the conversation!" className="h-full content-center border-0 bg-transparent" />
                ) : (
                  <ol className="grid gap-4">
                    {thread.data.messages.map((message) => (
                      <MessageItem
                        key={message.id}
                        message={message}
                        own={message.senderId === thread.data.currentUserId}
                        when={relativeTime(message.createdAt, now)}
                      />
                    ))}
                  </ol>
                )}
              </section>
              {unseen > 0 ? (
                // At once, not smoothly: in a busy thread a smooth scroll stopped short as messages
                // came in, and the button went on counting from where she had first left the end.
                <button
                  type="button"
                  onClick={() => {
                    const el = list.current;
                    if (!el) return;
                    el.scrollTop = el.scrollHeight;
                    // at the end from now on: what comes next is followed
                    atNewest.current = true;
                    setLeftAt(null);
                  }}
                  className="absolute bottom-3 left-1/2 inline-flex min-h-11 -translate-x-1/2 items-center gap-2 rounded-full bg-night-700 px-4 text-base font-medium text-white shadow-lg hover:bg-night-800"
                >
                  <ArrowDown aria-hidden="true" className="size-5" />
                  {unseen === 1 ? '1 new message' : `${unseen} new messages`}
                </button>
              ) : null}
            </div>
            <div className="border-t border-night-100 bg-white px-4 py-3 sm:px-6">
              <MessageComposer threadId={threadId} />
            </div>
          </>
        )}
      </div>
      <p data-testid="new-message-announcer" role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
