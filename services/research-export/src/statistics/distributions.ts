import betainc from '@stdlib/math-base-special-betainc';
import gammaPdf from '@stdlib/stats-base-dists-gamma-pdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

/**
 * The probability distributions, from libraries.
 *
 * - Central t and normal: stdlib (ports of Boost and Cephes), which agree with R's `pt`,
 *   `qt` and `pnorm` to about 1e-14 relative, tiny tail p-values included.
 * - Noncentral t: no maintained npm library has one that holds for large noncentralities
 *   (jstat's, used before, sums its series from j = 0 and was wrong from |ncp| ≈ 25: 0
 *   instead of 0.04). {@link noncentralTCdf} sums the published series from its mode, with
 *   stdlib's incomplete beta and gamma density for every term. Checked against SciPy's
 *   (Boost's) at 4,700 points and against a 40-digit integral (mpmath) at the 300 where
 *   SciPy gives NaN: within 1e-12 everywhere (df 1 to 10,000, |ncp| to 1,000, t to ±1,100).
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

/**
 * The largest |noncentrality| at which the noncentral t CDF is used: checked to here
 * (above). An interval near it takes up to about 1 s (thousands of incomplete betas an
 * evaluation); it would need |t| of about 1,000, d_z of 14 with 5,000 pairs.
 */
export const NONCENTRAL_T_NCP_LIMIT = 1000;

/**
 * P(T <= t) for T noncentral t with `df` degrees of freedom and noncentrality `ncp`.
 *
 * For t >= 0 it is the series of Guenther (1978) and Lenth (1989, AS 243):
 * Φ(−δ) + ½ Σ_j [p_j I_x(j + ½, ν/2) + q_j I_x(j + 1, ν/2)], x = t²/(t² + ν), with the
 * Poisson weights p_j = e^−λ λ^j / j! and q_j = sign(δ) e^−λ λ^(j+½) / Γ(j + 3/2), λ = δ²/2;
 * for t < 0, 1 − P(T <= −t) with −δ. It is summed outwards from the weights' mode, j = ⌊λ⌋,
 * as Benton & Krishnamoorthy (2003) do, and not from j = 0, where the weights underflow
 * for large δ (e^−λ is 0 from |δ| ≈ 38.6; jstat's sum from 0 went wrong from |δ| ≈ 25). Each
 * side stops once what it leaves out is below 1e-17: the weights fall geometrically there
 * (by λ/(j + 1) upwards and (j + ½)/λ downwards), which bounds the rest, and each incomplete beta
 * is at most 1. The weights are stdlib's gamma density and each incomplete beta is stdlib's
 * betainc (both ports of Boost's).
 */
export function noncentralTCdf(t: number, df: number, ncp: number): number {
  if (ncp === 0) return studentTCdf(t, df);
  const p = t < 0 ? 1 - seriesFromZero(-t, df, -ncp) : seriesFromZero(t, df, ncp);
  // a sum within its rounding of 0 or 1 may land just outside
  return Math.min(1, Math.max(0, p));
}

/** What a side of the series may leave out. */
const SERIES_TAIL = 1e-17;

/** The series above, for t >= 0. */
function seriesFromZero(t: number, df: number, delta: number): number {
  if (t === 0) return standardNormalCdf(-delta);
  const lambda = (delta * delta) / 2;
  const x = (t * t) / (t * t + df);
  const oneMinusX = df / (t * t + df);
  const halfDf = df / 2;
  const sign = delta < 0 ? -1 : 1;
  // the weights p_j and |q_j| are the gamma density at λ of shapes j + 1 and j + 3/2
  // (Boost's gamma_p_derivative: accurate where e^−λ λ^j / j! from logarithms loses
  // λ ln λ units of the last place)
  const p = (j: number) => gammaPdf(lambda, j + 1, 1);
  const q = (j: number) => gammaPdf(lambda, j + 1.5, 1);
  // I_x(a, ν/2), from x or from 1 − x, whichever is the smaller (each is exact as a quotient;
  // the other, taken as 1 minus it, would lose the digits of a small one)
  const beta = x <= 0.5 ? (a: number) => betainc(x, a, halfDf, true, false) : (a: number) => betainc(oneMinusX, halfDf, a, true, true);
  const ip = (j: number) => beta(j + 0.5);
  const iq = (j: number) => beta(j + 1);
  const mode = Math.floor(lambda);
  let sum = 0;
  for (let j = mode; ; j++) {
    const pj = p(j);
    const qj = q(j);
    const ipj = ip(j);
    sum += pj * ipj + sign * qj * iq(j);
    // past λ each later weight is at most λ/(j + 1) times the one before it, and each
    // incomplete beta at most this one (it falls as its first shape grows)
    const ratio = lambda / (j + 1);
    if (j > lambda && (((pj + qj) * ratio) / (1 - ratio)) * ipj < SERIES_TAIL) break;
  }
  for (let j = mode - 1; j >= 0; j--) {
    const pj = p(j);
    const qj = q(j);
    sum += pj * ip(j) + sign * qj * iq(j);
    // below the mode each earlier weight is at most (j + ½)/λ times the one after it, and
    // an incomplete beta is at most 1
    const ratio = (j + 0.5) / lambda;
    if (((pj + qj) * ratio) / (1 - ratio) < SERIES_TAIL) break;
  }
  return standardNormalCdf(-delta) + sum / 2;
}
