import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import jStat from 'jstat';

/**
 * The probability distributions, all from libraries, never approximated here.
 *
 * - Central t and normal: stdlib (ports of Boost and Cephes), which agree with R's `pt`,
 *   `qt` and `pnorm` to about 1e-14 relative, tiny tail p-values included.
 * - Noncentral t: jstat, the only maintained npm library that has it. Its CDF is the
 *   Poisson-weighted series of incomplete beta functions, which it sums for at least 200
 *   terms and then until they fall below 1e-14. Checked against R's `pt(q, df, ncp)`: within
 *   about 1e-8 for |ncp| <= 24 (df 1 to 400, q up to 60), but for |ncp| of about 25 and
 *   more the Poisson weights it starts from underflow and it stops before their bulk,
 *   returning values that are plainly wrong (0 instead of 0.04). So it is used only up to
 *   {@link NONCENTRAL_T_NCP_LIMIT}.
 */

export function standardNormalCdf(z: number): number {
  return normalCdf(z, 0, 1);
}

export function standardNormalQuantile(probability: number): number {
  return normalQuantile(probability, 0, 1);
}

export function studentTCdf(t: number, df: number): number {
  return tCdf(t, df);
}

export function studentTQuantile(probability: number, df: number): number {
  return tQuantile(probability, df);
}

/** The largest |noncentrality| at which jstat's noncentral t CDF is trusted (see above). */
export const NONCENTRAL_T_NCP_LIMIT = 24;

/** P(T <= t) for T noncentral t with `df` degrees of freedom and noncentrality `ncp`. */
export function noncentralTCdf(t: number, df: number, ncp: number): number {
  return jStat.noncentralt.cdf(t, df, ncp);
}
