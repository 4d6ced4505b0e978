// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadMore } from './load-more';

afterEach(cleanup);

/** A list of `pages` pages, the first shown; each press of the button shows the next. */
function Pages({ pages }: { pages: number }) {
  const [shown, setShown] = useState(1);
  const [, setClicks] = useState(0);
  return (
    <>
      <ul aria-label="Entries">
        {Array.from({ length: shown }, (_, i) => (
          <li key={i}>Page {i + 1}</li>
        ))}
      </ul>
      <LoadMore
        hasMore={shown < pages}
        pending={false}
        failed={false}
        onLoad={() => setShown((n) => n + 1)}
        label="Show older entries"
        pendingLabel="Loading older entries..."
        errorText="Older entries could not be loaded. Please try again."
      />
      <button type="button" onClick={() => setClicks((n) => n + 1)}>
        After the list
      </button>
      <button type="button" onClick={() => setShown(1)}>
        Start again
      </button>
      <button type="button" onClick={() => setShown(pages)}>
        Show all
      </button>
    </>
  );
}

describe('LoadMore', () => {
  it('keeps her place when the last page comes: focus moves from the button, now gone, to the end of the list', async () => {
    const user = userEvent.setup();
    render(<Pages pages={3} />);
    const button = screen.getByRole('button', { name: 'Show older entries' });
    button.focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Show older entries' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Show older entries' })).toBeNull());
    expect(screen.getByText('Page 3')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByText('That is all of them.'));
    // and Tab goes on from there, not from the top of the page
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After the list' }));
    // and the line does not take it back when the screen draws again
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After the list' }));
    // nor later, when the list has more again and then is whole without her pressing it
    await user.click(screen.getByRole('button', { name: 'Start again' }));
    expect(screen.getByRole('button', { name: 'Show older entries' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show all' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Show all' }));
    expect(screen.queryByText('That is all of them.')).toBeNull();
  });

  it('says nothing at the end of a list she did not page through', () => {
    render(<Pages pages={1} />);
    expect(screen.queryByRole('button', { name: 'Show older entries' })).toBeNull();
    expect(screen.queryByText('That is all of them.')).toBeNull();
  });
});
