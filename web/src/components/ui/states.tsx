import { CircleAlert, LoaderCircle, type LucideIcon } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { failureMessage, isApiRequestError, isTemporarilyUnavailable, serverMessage } from '../../lib/api-client';
import { useRetryWhileUnavailable } from '../../lib/use-retry-while-unavailable';
import { cn } from '../../lib/utils';
import { Button } from './button';
import { useStateFocus } from './state-focus';

/**
 * The loading, error and empty states every screen has (docs/architecture.md), in the spec's
 * words: the screen passes its own texts ('Loading threads...', 'No journal entries yet.
 * Start your first entry above!', 'Failed to load library content. Please try refreshing
 * the page.').
 *
 * `inline`: inside a section of a screen (a list under its heading, a side card);
 * otherwise the state takes the screen's (or the panel's) main area.
 */

export interface LoadingStateProps {
  text: string;
  inline?: boolean;
  className?: string;
  /**
   * Whether it takes the focus a state handed on as it went (state-focus.ts): not a part's
   * own loading (a chart's code) that comes with the content, which the focus goes to.
   */
  takesFocus?: boolean;
}

/** Something is on its way: a spinner and the text, announced politely. */
export function LoadingState({ text, inline = false, className, takesFocus = true }: LoadingStateProps) {
  const container = useRef<HTMLDivElement>(null);
  useStateFocus(container, undefined, takesFocus);
  return (
    <div
      ref={container}
      role="status"
      className={cn(
        inline
          ? 'flex items-center gap-2 py-6 text-base text-night-600'
          : 'flex min-h-[40vh] flex-col items-center justify-center gap-3 px-6 text-center text-night-700',
        className,
      )}
    >
      <LoaderCircle aria-hidden="true" className={cn('shrink-0 motion-safe:animate-spin', inline ? 'size-5' : 'size-8')} />
      <p className={inline ? undefined : 'text-lg'}>{text}</p>
    </div>
  );
}

export interface ErrorStateProps {
  /** A heading above the text (the screen's own words for what failed). */
  title?: string;
  text: ReactNode;
  /** What failed: when Sleepweave is temporarily unavailable, that is said instead of `text`. */
  error?: unknown;
  /** Shows a 'Try again' button. */
  onRetry?: () => void;
  retrying?: boolean;
  /** Another way on (a link back), after the retry button. */
  action?: ReactNode;
  inline?: boolean;
  className?: string;
}

/** What a screen says when a load fails: true of a lost connection, not of a server that answered. */
export const CHECK_CONNECTION = 'Please check your connection and try again.';
/** Said instead when the server answered with a failure of its own (a 500). */
export const SERVER_FAILED = 'Something went wrong on our side. Please try again.';

/** The screen's text for `error`: the unavailable service said as such, and a server's failure not blamed on her connection. */
export function errorText(screenText: ReactNode, error: unknown): ReactNode {
  if (isTemporarilyUnavailable(error)) return failureMessage(error, '');
  if (typeof screenText === 'string' && isApiRequestError(error) && error.status >= 500)
    return screenText.replace(CHECK_CONNECTION, SERVER_FAILED);
  // a request the server refused as it was asked (400): its reason, not her connection
  const refused = isApiRequestError(error) && error.status === 400 ? serverMessage(error) : undefined;
  if (typeof screenText === 'string' && refused) return screenText.replace(CHECK_CONNECTION, `The server refused it: ${refused}`);
  return screenText;
}

/** Something could not be loaded: an alert with the text and, usually, 'Try again'. */
export function ErrorState({
  title,
  text: screenText,
  error,
  onRetry,
  retrying = false,
  action,
  inline = false,
  className,
}: ErrorStateProps) {
  const text = errorText(screenText, error);
  // a restart of a second or two: tried again by itself while it lasts
  useRetryWhileUnavailable(error, retrying, onRetry);
  const container = useRef<HTMLDivElement>(null);
  const retryButton = useRef<HTMLButtonElement>(null);
  useStateFocus(container, retryButton);
  const retry = onRetry ? (
    <Button ref={retryButton} variant={inline ? 'outline' : 'primary'} onClick={onRetry} pending={retrying}>
      Try again
    </Button>
  ) : null;
  if (inline) {
    return (
      <div
        ref={container}
        role="alert"
        className={cn('grid justify-items-start gap-3 rounded-3xl border border-rose-200 bg-rose-50 p-6 text-rose-900', className)}
      >
        {title ? <h2 className="text-lg font-semibold">{title}</h2> : null}
        <p>{text}</p>
        {retry}
        {action}
      </div>
    );
  }
  return (
    <div
      ref={container}
      role="alert"
      className={cn('mx-auto flex min-h-[40vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center', className)}
    >
      <CircleAlert aria-hidden="true" className="size-10 text-rose-700" />
      {title ? <h2 className="text-2xl font-semibold text-night-950">{title}</h2> : null}
      <p className="text-lg text-night-800">{text}</p>
      {retry}
      {action}
    </div>
  );
}

export interface EmptyStateProps {
  icon?: LucideIcon;
  /** A heading (level 2) above the text. */
  title?: string;
  text: ReactNode;
  /** What to do next (a link styled as a button). */
  action?: ReactNode;
  className?: string;
}

/** Nothing to show yet: what she would see here, and what to do next. */
export function EmptyState({ icon: Icon, title, text, action, className }: EmptyStateProps) {
  return (
    <div
      className={cn(
        'grid justify-items-center gap-3 rounded-3xl border border-dashed border-night-200 bg-white/60 px-6 py-10 text-center',
        className,
      )}
    >
      {Icon ? (
        <span className="grid size-14 place-items-center rounded-2xl bg-night-100 text-night-700">
          <Icon aria-hidden="true" className="size-7" />
        </span>
      ) : null}
      {title ? <h2 className="text-xl font-semibold text-night-950">{title}</h2> : null}
      <p className="max-w-md text-base text-night-700">{text}</p>
      {action}
    </div>
  );
}
