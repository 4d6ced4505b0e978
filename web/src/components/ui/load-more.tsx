import { Button } from './button';

/**
 * Under a paged list (docs/architecture.md, "Paging"): fetches the next page while there is
 * one, says it is loading, and when the page failed says so with the button to try again.
 * Nothing when there is no next page.
 */
export function LoadMore({
  hasMore,
  pending,
  failed,
  onLoad,
  label,
  pendingLabel,
  errorText,
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
}) {
  if (!hasMore) return null;
  return (
    <div className="flex flex-col items-center gap-2">
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
