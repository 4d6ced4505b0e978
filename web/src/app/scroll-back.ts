import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** How long Back waits for the page she left to be as tall as where she was on it. */
export const SCROLL_BACK_WAIT_MS = 5_000;

/** What she does that says she has moved on: the wait ends, the page stays where she takes it. */
const HER_OWN_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/** Where she was on each page of this tab's history (location key → scrollY), as she left it. */
const positions = new Map<string, number>();
/** While Back waits, the page's clamped scroll is not where she was. */
let waiting = false;

/**
 * Back returns her to where she was on the page, once the page is tall enough again.
 * React Router's ScrollRestoration scrolls back as the page renders, but a page whose data
 * is fetched again (the library's cards are never kept: docs/product.md §7) is only a
 * "Loading..." line then, so she landed at the top of a list she had scrolled half through.
 * This follows the page's height until it can scroll there, for at most
 * SCROLL_BACK_WAIT_MS, and stops as soon as she scrolls, taps or types herself.
 */
export function useScrollBack(): void {
  const { key } = useLocation();
  const navigationType = useNavigationType();

  // a layout effect: the scroll to the top of the next page (ScrollRestoration's, in the
  // commit that shows it) is then recorded as that page's, not as where she left this one
  useLayoutEffect(() => {
    const record = () => {
      if (!waiting) positions.set(key, window.scrollY);
    };
    window.addEventListener('scroll', record, { passive: true });
    return () => window.removeEventListener('scroll', record);
  }, [key]);

  // ScrollRestoration's clamped scroll back, in the same commit, is not recorded either
  useLayoutEffect(() => {
    const y = positions.get(key);
    if (navigationType !== 'POP' || y === undefined) return;
    const tallEnough = () => document.documentElement.scrollHeight - window.innerHeight >= y - 1;
    if (tallEnough()) return; // ScrollRestoration got there
    waiting = true;
    const stop = () => {
      waiting = false;
      observer.disconnect();
      clearTimeout(timer);
      for (const event of HER_OWN_MOVES) window.removeEventListener(event, stop);
    };
    const observer = new ResizeObserver(() => {
      if (!tallEnough()) return;
      stop();
      window.scrollTo(0, y);
    });
    const timer = setTimeout(stop, SCROLL_BACK_WAIT_MS);
    for (const event of HER_OWN_MOVES) window.addEventListener(event, stop, { passive: true });
    observer.observe(document.body);
    return stop;
  }, [key, navigationType]);
}
