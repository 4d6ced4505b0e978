import { useEffect, useRef } from 'react';

/**
 * `schedule(value)` calls `callback(value)` once calls have stopped for `delayMs` (each call
 * starts the wait again); nothing is called after the component has gone.
 */
export function useDebouncedCallback<T>(callback: (value: T) => void, delayMs: number): (value: T) => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(callback);
  useEffect(() => {
    latest.current = callback;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return (value: T) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current(value), delayMs);
  };
}
