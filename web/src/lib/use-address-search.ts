import { useState } from 'react';
import { useDebouncedCallback } from './use-debounced-callback';

/**
 * The search an address holds, as the box would have taken it: trimmed, and cut to the box's
 * `max` characters (code points, as the server counts them). A longer one (an old or edited
 * link) was sent as it was, refused with a 400, and shown as a connection problem.
 */
export function searchFromAddress(value: string | null, max: number): string {
  return Array.from((value ?? '').trim())
    .slice(0, max)
    .join('')
    .trim();
}

/**
 * A search box whose search lives in the address (so Back and a reload return to it): what
 * she types is written to the address once typing pauses for `delayMs` (or at once with
 * `submit`), by `write`; `search` is the address's. When the address changes from outside
 * (Back, a link) the box shows its search. When it takes a search the box wrote itself, the
 * box keeps what she typed since: the router applies a change a moment later (a
 * transition), and a letter typed meanwhile was lost.
 */
export function useAddressSearch({ search, write, delayMs }: { search: string; write: (value: string) => void; delayMs: number }) {
  const [text, setText] = useState(search);
  // The search this box last wrote to the address itself.
  const [written, setWritten] = useState<string | null>(null);
  const commit = (value: string) => {
    if (value === search) return;
    setWritten(value);
    write(value);
  };
  // Only her typing commits (not a change of the address, which may have moved on since, e.g.
  // with Back): the address is read when typing pauses, it does not start a search of its own.
  const typingPaused = useDebouncedCallback(commit, delayMs);

  // Adjusted while rendering (react.dev, "Adjusting some state when a prop changes").
  const [shownSearch, setShownSearch] = useState(search);
  if (search !== shownSearch) {
    setShownSearch(search);
    if (search === written) setWritten(null);
    else if (text.trim() !== search) setText(search);
  }

  return {
    text,
    /** The box's onChange. */
    change: (value: string) => {
      setText(value);
      typingPaused(value.trim());
    },
    /** Search for what is in the box now (the form's submit). */
    submit: () => commit(text.trim()),
  };
}
