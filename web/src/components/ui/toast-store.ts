import { useSyncExternalStore } from 'react';

/** A tiny toast store: `toast()` from anywhere, `useToast()` in the component that renders them. */
export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /**
   * Milliseconds before it closes by itself: 5000 by default; a destructive one (an error)
   * stays until she closes it, so that no one has to read it against a clock (WCAG 2.2.1).
   */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

const MAX_TOASTS = 3;
/** How long a closed toast stays in the list so its exit can play. */
const REMOVE_DELAY_MS = 300;

let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

/**
 * Shows a toast. Any new one closes the errors still open: a later error replaces them (one
 * at a time: piled up, errors that stay until closed covered the very button to try again
 * with), and a success says the failure before it is over.
 */
export function toast(input: ToastInput): { id: number; dismiss: () => void } {
  const id = nextId++;
  const stale = toasts.filter((t) => t.open && t.variant === 'destructive').map((t) => t.id);
  const others = toasts.map((t) => (stale.includes(t.id) ? { ...t, open: false } : t));
  emit([{ ...input, id, open: true }, ...others].slice(0, MAX_TOASTS));
  if (stale.length > 0) setTimeout(() => emit(toasts.filter((t) => !stale.includes(t.id))), REMOVE_DELAY_MS);
  return { id, dismiss: () => dismiss(id) };
}

export function dismiss(id?: number): void {
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => {
    emit(toasts.filter((t) => t.open || (id !== undefined && t.id !== id)));
  }, REMOVE_DELAY_MS);
}

/** Every toast gone at once, without their exit (a test's fresh start: an error's toast otherwise stays). */
export function clearToasts(): void {
  emit([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => toasts;

export function useToast() {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss };
}
