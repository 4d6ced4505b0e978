import { useCallback, useState } from 'react';
import { Button } from './button';

/**
 * Under a paged list (docs/architecture.md, "Paging"): fetches the next page while there is
 * one, says it is loading, and when the page failed says so with the button to try again.
 * Nothing when there is no next page; but when the last page came while the button had
 * focus (she pressed it), the button goes and a line saying the list is whole takes its
 * place and the focus: else focus would fall to the top of the page, and with it her place.
 */
export function LoadMore({
  hasMore,
  pending,
  failed,
  onLoad,
  label,
  pendingLabel,
  errorText,
  endText = 'That is all of them.',
}: {
  hasMore: boolean;
  pending: boolean;
  failed: boolean;
  onLoad: () => void;
  /** The button's words, e.g. 'Show older entries'. */
  label: string;
  /** While the page loads, e.g. 'Loading older entries...'. */
  pendingLabel: string;
  /** When the page failed, e.g. 'Older entries could not be loaded. Please try again.' */
  errorText: string;
  /** Where the button was, once she has loaded the last page. */
  endText?: string;
}) {
  const [focusWithin, setFocusWithin] = useState(false);
  // Latched as the last page is shown (the button's removal may blur it after), reset with a new list.
  const [ended, setEnded] = useState(false);
  if (!hasMore && focusWithin && !ended) {
    setEnded(true);
    // the button is gone without a blur (React sends none on unmount): not focused any more
    setFocusWithin(false);
  }
  // once, as the line appears (a new callback each render would take the focus back each time)
  const focusOnce = useCallback((line: HTMLParagraphElement | null) => line?.focus(), []);
  if (hasMore && ended) setEnded(false);

  if (!hasMore) {
    return ended ? (
      <p ref={focusOnce} tabIndex={-1} className="text-center text-sm text-night-600">
        {endText}
      </p>
    ) : null;
  }
  return (
    <div className="flex flex-col items-center gap-2" onFocus={() => setFocusWithin(true)} onBlur={() => setFocusWithin(false)}>
      <Button variant="outline" onClick={onLoad} pending={pending}>
        {pending ? pendingLabel : label}
      </Button>
      {failed && !pending ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorText}
        </p>
      ) : null}
    </div>
  );
}
