import { NONCENTRAL_T_NCP_LIMIT } from './distributions.ts';
import { EXACT_SIGNED_RANK_BELOW } from './signed-rank.ts';

/**
 * The methods in words, once: the zip's README and codebook quote them, and analysis.R is
 * generated to follow them (with the same reasons for an empty value), so what a
 * researcher reads, what we compute and what R recomputes are one thing.
 */

export const CONFIDENCE_LEVEL = 0.95;

/**
 * R's t.test refuses "data are essentially constant" when the standard error is below
 * 10·ε·|mean|: a spread that small is rounding in the phase means (7.1 + 0.3 − 7.1 is not
 * exactly 0.3), not variation, and a t or d computed from it would be astronomically large
 * and meaningless. The same rule decides when a phase "does not vary" for d_av.
 */
export const ESSENTIALLY_CONSTANT_FACTOR = 10 * Number.EPSILON;

export function isEssentiallyConstant(standardError: number, mean: number): boolean {
  return standardError === 0 || standardError < ESSENTIALLY_CONSTANT_FACTOR * Math.abs(mean);
}

/** Why a value is empty. analysis.R writes the same words. */
export const NOT_COMPUTABLE = {
  noPairs: 'not computable: no complete pairs',
  fewerThanTwoPairs: 'not computable: fewer than 2 pairs',
  differencesDoNotVary: 'not computable: the differences do not vary',
  phasesDoNotVary: 'not computable: neither phase varies',
  hedgesNeedsThreePairs: "not computable: Hedges' correction needs at least 3 pairs",
  noncentralityBeyondLimit: `not computable: a limit of the exact interval lies beyond |ncp| = ${NONCENTRAL_T_NCP_LIMIT}, where the noncentral t CDF is not checked`,
  allDifferencesZero: 'not computable: every difference is zero',
} as const;

/** The small-sample correction of g_av, named for the README. */
export const HEDGES_CORRECTION = {
  name: 'J = 1 − 3 / (4·df − 1), df = n − 1',
  description:
    "Hedges & Olkin's (1985) approximation of the bias correction, with the paired design's df = n − 1, as in Lakens's (2013) spreadsheet and R's effsize::cohen.d(paired = TRUE, hedges.correction = TRUE). It differs from the exact Γ(df/2) / (√(df/2)·Γ((df − 1)/2)) by less than 0.0005 from 10 pairs on. With 2 pairs (df = 1) J is 0, so g_av is left empty.",
} as const;

/** The method of the d_z interval, named for the README. */
export const DZ_CI_METHOD = {
  name: 'exact noncentral t interval',
  description: `The noncentrality parameters λ_L and λ_U with P(T ≤ t | df = n − 1, λ_L) = 0.975 and P(T ≤ t | df = n − 1, λ_U) = 0.025, for the observed paired t, each found to 1e-7 by a bracketing root search (secant steps kept inside a bracket, from the normal approximation of Abramowitz & Stegun 26.7.10); the limits of d_z are λ/√n (Steiger & Fouladi 1997; Cumming & Finch 2001). The noncentral t CDF is the series of Lenth (1989, AS 243), summed outwards from its largest term (Benton & Krishnamoorthy 2003), every term from stdlib's incomplete beta and gamma density; it agrees with SciPy's (Boost's) to 1e-12 up to |λ| = ${NONCENTRAL_T_NCP_LIMIT}, and an interval that would reach beyond is left empty: from |t| of about 446 with 2 pairs, 688 with 10 and 835 with 50. analysis.R uses R's pt(q, df, ncp) up to |λ| = 37.62, where R sums the series, and beyond it (where R's pt is a normal approximation) R's integrate of Φ(t√(v/df) − λ) over the χ² density of v; uniroot finds the limits.`,
} as const;

export interface StatisticalMethod {
  statistic: string;
  method: string;
}

/** Every statistic of comparisons.csv, how it is computed. */
export const STATISTICAL_METHODS: readonly StatisticalMethod[] = [
  {
    statistic: 'Unit of analysis',
    method:
      "Each participant's phase mean of the metric, never single nights. A participant enters a comparison when she has at least the minimum number of analysed nights in both of its phases, and enters a metric's comparison when both her phase means of it exist. Difference = second phase − first phase, to the precision of the phase means (the 10th significant digit of the smaller of the two), so that equal differences are equal and not apart by binary rounding. A phase mean that repeats in decimal (1/14 of the nights) is off in its 10th digit, so differences whose sizes lie within 10 units of the 10th significant digit of the larger mean of each other are taken as one size (the smallest's, each keeping its sign; within that of zero, zero): the same difference reached by two participants is then a tie, and differences that are all the same do not vary.",
  },
  {
    statistic: 'Paired t test',
    method:
      'mean difference / (SD of the differences / √n), df = n − 1, two-sided p; the 95% CI of the mean difference is mean ± t(0.975, df)·SD/√n. As R: t.test(second, first, paired = TRUE).',
  },
  { statistic: "Cohen's d_z", method: 'mean difference / SD of the differences (Lakens 2013, eq. 6).' },
  { statistic: "95% CI of Cohen's d_z", method: `${DZ_CI_METHOD.name}: ${DZ_CI_METHOD.description}` },
  { statistic: "Cohen's d_av", method: 'mean difference / ((SD of the first phase + SD of the second phase) / 2) (Lakens 2013, eq. 10).' },
  { statistic: "Hedges' g_av", method: `d_av × J, ${HEDGES_CORRECTION.name}. ${HEDGES_CORRECTION.description}` },
  {
    statistic: 'Wilcoxon signed-rank test',
    method: `As R before 4.6: wilcox.test(second, first, paired = TRUE) with its defaults (exact = NULL, correct = TRUE); analysis.R passes that choice of exact itself, so R 4.6 and later (whose default gives an exact conditional p when there are ties) gives the same. Zero differences are dropped; V is the sum of the ranks of the positive differences (ties get their mean rank). p is exact with fewer than ${EXACT_SIGNED_RANK_BELOW} non-zero differences and no ties or zeros; otherwise from the normal approximation with the tie correction of the variance and a continuity correction of 0.5.`,
  },
  {
    statistic: 'Holm-adjusted p',
    method:
      "Holm's (1979) step-down adjustment of the paired t test's p across the metrics of one comparison, as R's p.adjust(p, 'holm'); metrics whose p could not be computed are not counted.",
  },
  {
    statistic: 'Empty values',
    method: `A value that cannot be computed is empty, and comparisons.csv's note says why, as one of: ${Object.values(NOT_COMPUTABLE)
      .map((reason) => reason.replace(/^not computable: /, ''))
      .join(
        '; ',
      )}. Values "do not vary" when their standard error is below 10·ε·|mean|, as R's t.test decides ("data are essentially constant").`,
  },
];

export const REFERENCES: readonly string[] = [
  'Cumming, G., & Finch, S. (2001). A primer on the understanding, use, and calculation of confidence intervals that are based on central and noncentral distributions. Educational and Psychological Measurement, 61(4), 532–574.',
  'Hedges, L. V., & Olkin, I. (1985). Statistical methods for meta-analysis. Academic Press.',
  'Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal of Statistics, 6(2), 65–70.',
  'Lakens, D. (2013). Calculating and reporting effect sizes to facilitate cumulative science: a practical primer for t-tests and ANOVAs. Frontiers in Psychology, 4, 863. doi:10.3389/fpsyg.2013.00863',
  'Steiger, J. H., & Fouladi, R. T. (1997). Noncentrality interval estimation and the evaluation of statistical models. In L. L. Harlow, S. A. Mulaik, & J. H. Steiger (Eds.), What if there were no significance tests? (pp. 221–257). Erlbaum.',
  'Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin, 1(6), 80–83.',
];
