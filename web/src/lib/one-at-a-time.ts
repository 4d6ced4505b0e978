import { useRef } from 'react';

/**
 * Runs `start` only when the last run it started has settled: a mutation's `mutateAsync`,
 * say. A button's pending state (disabled) comes a render after the click, and a fast
 * mouse double-click lands before it: it sent two accounts (201, then 409 "already
 * exists" over a success), two consents, two downloads. Its errors are the mutation's
 * (onError): here they are only waited for.
 */
export function useOneAtATime(): (start: () => Promise<unknown>) => void {
  const running = useRef(false);
  return (start) => {
    if (running.current) return;
    running.current = true;
    void start()
      .catch(() => undefined)
      .finally(() => {
        running.current = false;
      });
  };
}
