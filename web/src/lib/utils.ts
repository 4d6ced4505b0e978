import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names and lets later Tailwind utilities win over earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** How a scroll the app makes moves: at once for whom the system asks for reduced motion, smoothly otherwise. */
export function scrollBehavior(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/** Whether she points by touch: there a text field's focus brings up a keyboard that covers much of the page. */
export function touchScreen(): boolean {
  return window.matchMedia('(pointer: coarse)').matches;
}
