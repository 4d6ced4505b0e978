/** Moves focus to `target`, which need not be a control (a heading, a region): focusable by script only. */
export function focusOn(target: HTMLElement): void {
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

/** The page's main heading (its h1), where the focus goes when what had it is gone. */
export function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
}
