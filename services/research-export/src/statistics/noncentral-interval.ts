import { NONCENTRAL_T_NCP_LIMIT, noncentralTCdf } from './distributions.ts';

/** Width at which the bisection stops: far below what the CDF's own accuracy (about 1e-8) can resolve. */
const NCP_TOLERANCE = 1e-9;

/**
 * The exact confidence interval of a noncentrality parameter from an observed t (Steiger &
 * Fouladi 1997; Cumming & Finch 2001): the ncp whose noncentral t puts the observed t at
 * its upper (1 + level) / 2 quantile, and the one that puts it at its lower (1 − level) / 2
 * quantile. P(T <= t | ncp) falls as ncp grows, so each limit is the one root of a monotone
 * function and bisection finds it. null when a limit lies beyond ±NONCENTRAL_T_NCP_LIMIT,
 * where the library's CDF cannot be trusted.
 */
export function noncentralityInterval(t: number, df: number, level: number): { low: number; high: number } | null {
  const cdfAt = (ncp: number) => noncentralTCdf(t, df, ncp);
  const upperTail = (1 - level) / 2;
  const lowerTarget = 1 - upperTail;
  if (cdfAt(-NONCENTRAL_T_NCP_LIMIT) < lowerTarget || cdfAt(NONCENTRAL_T_NCP_LIMIT) > upperTail) return null;
  return {
    low: decreasingRoot((ncp) => cdfAt(ncp) - lowerTarget, -NONCENTRAL_T_NCP_LIMIT, NONCENTRAL_T_NCP_LIMIT),
    high: decreasingRoot((ncp) => cdfAt(ncp) - upperTail, -NONCENTRAL_T_NCP_LIMIT, NONCENTRAL_T_NCP_LIMIT),
  };
}

/** Bisection for the root of f, decreasing on [low, high] with f(low) >= 0 >= f(high). */
function decreasingRoot(f: (x: number) => number, low: number, high: number): number {
  while (high - low > NCP_TOLERANCE) {
    const middle = (low + high) / 2;
    if (f(middle) > 0) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
