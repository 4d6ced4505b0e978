/** Moves focus to `target`, which need not be a control (a heading, a region): focusable by script only. */
export function focusOn(target: HTMLElement): void {
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}
