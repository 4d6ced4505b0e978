import { useEffect, useEffectEvent, useRef } from 'react';
import { isTemporarilyUnavailable } from './api-client';

/** The first wait before trying again by itself (the gateway's Retry-After), then doubled up to the last. */
export const UNAVAILABLE_RETRY_MS = { first: 5_000, max: 30_000 } as const;

/**
 * While `error` says Sleepweave is temporarily unavailable (a service restarting: 502, 503,
 * 504), `retry` is called by itself after 5 s, then 10, 20 and every 30 s: a screen that
 * met a restart of a second or two recovers without her (it stayed on "temporarily
 * unavailable" until she pressed Try again). Not while `retrying`; from the start again once
 * the error is gone.
 */
export function useRetryWhileUnavailable(error: unknown, retrying: boolean, retry: (() => void) | undefined): void {
  const tries = useRef(0);
  const onRetry = useEffectEvent(() => retry?.());
  const unavailable = retry !== undefined && isTemporarilyUnavailable(error);
  useEffect(() => {
    if (!unavailable) {
      if (!error) tries.current = 0;
      return;
    }
    if (retrying) return;
    const wait = Math.min(UNAVAILABLE_RETRY_MS.first * 2 ** tries.current, UNAVAILABLE_RETRY_MS.max);
    const timer = setTimeout(() => {
      tries.current += 1;
      onRetry();
    }, wait);
    return () => clearTimeout(timer);
  }, [unavailable, retrying, error]);
}
