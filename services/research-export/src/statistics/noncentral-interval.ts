import { NONCENTRAL_T_NCP_LIMIT, noncentralTCdf, studentTQuantile } from './distributions.ts';

/** Width at which the search stops: the CDF itself is accurate to about 1e-8 (distributions.ts), which puts the
 * root within about 1e-7 of the true limit; a search finer than that finds nothing more. */
const NCP_TOLERANCE = 1e-7;

/**
 * The exact confidence interval of a noncentrality parameter from an observed t (Steiger &
 * Fouladi 1997; Cumming & Finch 2001): the ncp whose noncentral t puts the observed t at
 * its upper (1 + level) / 2 quantile, and the one that puts it at its lower (1 − level) / 2
 * quantile. P(T <= t | ncp) falls as ncp grows, so each limit is the one root of a monotone
 * function and a bracketing root finder finds it. null when a limit lies beyond ±NONCENTRAL_T_NCP_LIMIT,
 * where the library's CDF cannot be trusted (found by the search reaching the limit, not
 * by evaluating the CDF there first: at the limit it is at its costliest).
 */
export function noncentralityInterval(t: number, df: number, level: number): { low: number; high: number } | null {
  const cdfAt = (ncp: number) => noncentralTCdf(t, df, ncp);
  const upperTail = (1 - level) / 2;
  const lowerTarget = 1 - upperTail;
  // The normal approximation puts each limit near t ∓ t_crit·se, with the ncp's se about
  // sqrt(1 + t²/2df): start from a bracket of a twentieth of an se around that guess
  // (checked, and widened until it holds the root), so the root finder needs few steps.
  const se = Math.sqrt(1 + (t * t) / (2 * df));
  const z = studentTQuantile(lowerTarget, df);
  const low = rootNear((ncp) => cdfAt(ncp) - lowerTarget, t - z * se, se / 20);
  if (low === null) return null;
  const high = rootNear((ncp) => cdfAt(ncp) - upperTail, t + z * se, se / 20);
  return high === null ? null : { low, high };
}

/** The root of a decreasing f in [−limit, limit], searched from a guess outwards; null when there is none. */
function rootNear(f: (x: number) => number, guess: number, step: number): number | null {
  const clamp = (x: number) => Math.min(NONCENTRAL_T_NCP_LIMIT, Math.max(-NONCENTRAL_T_NCP_LIMIT, x));
  let low = clamp(guess - step);
  let high = clamp(guess + step);
  let fLow = f(low);
  let fHigh = f(high);
  while (fLow < 0 && low > -NONCENTRAL_T_NCP_LIMIT) {
    [high, fHigh] = [low, fLow];
    step *= 2;
    low = clamp(low - step);
    fLow = f(low);
  }
  while (fHigh > 0 && high < NONCENTRAL_T_NCP_LIMIT) {
    [low, fLow] = [high, fHigh];
    step *= 2;
    high = clamp(high + step);
    fHigh = f(high);
  }
  if (fLow < 0 || fHigh > 0) return null;
  return decreasingRoot(f, low, fLow, high, fHigh);
}

/**
 * The root of f, decreasing on [low, high] with f(low) >= 0 >= f(high), by the Illinois
 * variant of regula falsi (Dowell & Jarratt 1971): the root stays bracketed as in
 * bisection, but it converges superlinearly, in about 10 evaluations of the noncentral t
 * CDF instead of bisection's 36 (the CDF is the run's costliest sum).
 */
function decreasingRoot(f: (x: number) => number, low: number, fLow: number, high: number, fHigh: number): number {
  let side = 0;
  let previous = Number.NaN;
  for (let i = 0; i < 200 && high - low > NCP_TOLERANCE; i++) {
    const x = fLow === fHigh ? (low + high) / 2 : high - (fHigh * (high - low)) / (fHigh - fLow);
    // superlinear convergence: the last step bounds the error
    if (Math.abs(x - previous) < NCP_TOLERANCE / 10) return x;
    previous = x;
    const fx = f(x);
    if (fx === 0) return x;
    if (fx > 0) {
      low = x;
      fLow = fx;
      if (side === -1) fHigh /= 2;
      side = -1;
    } else {
      high = x;
      fHigh = fx;
      if (side === 1) fLow /= 2;
      side = 1;
    }
  }
  return (low + high) / 2;
}
