import { NONCENTRAL_T_NCP_LIMIT, noncentralTCdf, standardNormalQuantile } from './distributions.ts';

/** Width at which the search stops: each limit of the noncentrality to 1e-7, of d_z to 1e-7/√n (analysis.R
 * checks them to 1e-6). The CDF's accuracy (1e-12, distributions.ts) would allow a finer search. */
const NCP_TOLERANCE = 1e-7;

/**
 * The exact confidence interval of a noncentrality parameter from an observed t (Steiger &
 * Fouladi 1997; Cumming & Finch 2001): the ncp whose noncentral t puts the observed t at
 * its upper (1 + level) / 2 quantile, and the one that puts it at its lower (1 − level) / 2
 * quantile. P(T <= t | ncp) falls as ncp grows, so each limit is the one root of a monotone
 * function and a bracketing root finder finds it. null when a limit lies beyond ±NONCENTRAL_T_NCP_LIMIT,
 * where the CDF is not checked (found by the search reaching the limit, not by evaluating
 * the CDF there first: at the limit it is at its costliest).
 */
export function noncentralityInterval(t: number, df: number, level: number): { low: number; high: number } | null {
  const cdfAt = (ncp: number) => noncentralTCdf(t, df, ncp);
  const upperTail = (1 - level) / 2;
  const lowerTarget = 1 - upperTail;
  // Each limit starts from the normal approximation of the noncentral t (Abramowitz &
  // Stegun 1964, 26.7.10): P(T <= t) ≈ Φ((t(1 − 1/4df) − ncp) / sqrt(1 + t²/2df)), which puts
  // it within about 1e-4 of the ncp's se (sqrt(1 + t²/2df)) at df 100 and more, 0.03 at df 10.
  // The search steps a thousandth of an se towards the root, so the first two evaluations of
  // the CDF mostly bracket it already, and tightly.
  const se = Math.sqrt(1 + (t * t) / (2 * df));
  const z = standardNormalQuantile(lowerTarget);
  const centre = t * (1 - 1 / (4 * df));
  const step = se / 1000;
  const low = rootNear((ncp) => cdfAt(ncp) - lowerTarget, centre - z * se, step);
  if (low === null) return null;
  const high = rootNear((ncp) => cdfAt(ncp) - upperTail, centre + z * se, step);
  return high === null ? null : { low, high };
}

/**
 * The root of a decreasing f in [−limit, limit], searched from a guess: a step towards the
 * root (f > 0: it lies above), doubled until f changes sign; null when it does not before the
 * limit.
 */
function rootNear(f: (x: number) => number, guess: number, step: number): number | null {
  const clamp = (x: number) => Math.min(NONCENTRAL_T_NCP_LIMIT, Math.max(-NONCENTRAL_T_NCP_LIMIT, x));
  let x = clamp(guess);
  let fx = f(x);
  if (fx === 0) return x;
  const direction = fx > 0 ? 1 : -1;
  for (;;) {
    const next = clamp(x + direction * step);
    if (next === x) return null; // at the limit, no sign change
    const fNext = f(next);
    if (fNext === 0) return next;
    if (fNext > 0 !== fx > 0) return direction > 0 ? decreasingRoot(f, x, fx, next, fNext) : decreasingRoot(f, next, fNext, x, fx);
    x = next;
    fx = fNext;
    step *= 2;
  }
}

/**
 * The root of f, decreasing on [low, high] with f(low) >= 0 >= f(high), by the secant method
 * on the two latest points, kept inside the bracket: a step that would leave it is a step of
 * regula falsi on the bracket instead (so the root stays bracketed, as in bisection). From
 * the close bracket rootNear finds, the secant's superlinear convergence needs two or three
 * evaluations of the noncentral t CDF (the run's costliest sum) where bisection needs 25.
 */
function decreasingRoot(f: (x: number) => number, low: number, fLow: number, high: number, fHigh: number): number {
  // the two latest points
  let older = low;
  let fOlder = fLow;
  let latest = high;
  let fLatest = fHigh;
  for (let i = 0; i < 200 && high - low > NCP_TOLERANCE; i++) {
    let x = fLatest === fOlder ? Number.NaN : latest - (fLatest * (latest - older)) / (fLatest - fOlder);
    if (!(x > low && x < high)) x = fLow === fHigh ? (low + high) / 2 : high - (fHigh * (high - low)) / (fHigh - fLow);
    if (!(x > low && x < high)) x = (low + high) / 2;
    // superlinear convergence: the last step bounds the error
    if (Math.abs(x - latest) < NCP_TOLERANCE / 10) return x;
    const fx = f(x);
    if (fx === 0) return x;
    if (fx > 0) {
      low = x;
      fLow = fx;
    } else {
      high = x;
      fHigh = fx;
    }
    older = latest;
    fOlder = fLatest;
    latest = x;
    fLatest = fx;
  }
  return (low + high) / 2;
}
