import { useLayoutEffect, type RefObject } from 'react';
import { focusOn, pageHeading } from '../../lib/focus';

/**
 * The focus across a screen's loading and error states. Try again is pressed (from the
 * keyboard, or with a click, which focuses it too), and the screen shows its loading state
 * in place of the error, then the error again or what loaded: the button went, and the focus
 * fell to the page (a screen reader said nothing of what came, and Tab started again from
 * the top; found by an outside tester). A state that leaves with the focus in it hands it on:
 * to the state that comes in its place (its Try again, or its loading text), else, when
 * what came is the content, to the page's main heading, as after a page change.
 */
let handedOn = false;

function handOn(): void {
  handedOn = true;
  setTimeout(() => {
    if (!handedOn) return;
    handedOn = false;
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    const heading = pageHeading() ?? document.querySelector<HTMLElement>('main');
    if (heading) focusOn(heading);
  }, 0);
}

/**
 * A state's part in that: when it comes in place of a state that had the focus, `target`
 * (or the state itself) takes it, if it `takes`; when it goes with the focus in it, it
 * hands it on. Its cleanup runs before React removes its element, while the focus is still
 * there to see.
 */
export function useStateFocus(container: RefObject<HTMLElement | null>, target?: RefObject<HTMLElement | null>, takes = true): void {
  useLayoutEffect(() => {
    if (takes && handedOn) {
      handedOn = false;
      const to = target?.current ?? container.current;
      if (to) focusOn(to);
    }
    const node = container.current;
    return () => {
      if (node?.contains(document.activeElement)) handOn();
    };
  }, [container, target, takes]);
}
