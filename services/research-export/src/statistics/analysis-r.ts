import { COMPARISONS, COMPARISON_COLUMNS, type ComparedMetric, STATISTIC_COLUMNS } from './analysis.ts';
import { NONCENTRAL_T_NCP_LIMIT } from './distributions.ts';
import { CONFIDENCE_LEVEL, NOT_COMPUTABLE } from './methods.ts';

/**
 * analysis.R's noncentral t CDF and the exact interval of the noncentrality parameter (it
 * needs `conf_level` and `ncp_limit`): a test runs it over a sweep of intervals against the
 * service's. Integrated over V's quantiles in one piece instead of over its density in
 * pieces, R's integrate stopped the script ("the integral is probably divergent",
 * "roundoff error") at 78 of 2,452 intervals: qchisq's own error is noise at the tolerance
 * asked for.
 */
export const R_NONCENTRALITY_INTERVAL = `# P(T <= t) for the noncentral t: R's pt up to |ncp| = 37.62, where R sums its series; beyond,
# where R's pt is a normal approximation, E[pnorm(t sqrt(V / df) - ncp)] for V chi-square(df),
# integrated over V's density between the V where pnorm's argument is -8 and where it is 8 (the
# chi-square tail above counts whole), in pieces cut at V's quantiles.
noncentral_t_cdf <- function(t, df, ncp) {
  if (abs(ncp) <= 37.62 && df <= 4e5) return(suppressWarnings(pt(t, df, ncp)))
  if (t < 0) return(1 - noncentral_t_cdf(-t, df, -ncp))
  if (t == 0) return(pnorm(-ncp))
  v <- function(z) if (ncp + z <= 0) 0 else df * ((ncp + z) / t)^2
  from <- v(-8)
  to <- v(8)
  cuts <- c(from, to, qchisq(c(1e-12, 1e-4, 0.1, 0.5, 0.9, 1 - 1e-4), df), qchisq(1e-12, df, lower.tail = FALSE))
  cuts <- sort(unique(cuts[cuts >= from & cuts <= to]))
  density_part <- function(x) pnorm(t * sqrt(x / df) - ncp) * dchisq(x, df)
  inside <- 0
  for (i in seq_len(length(cuts) - 1))
    inside <- inside + integrate(density_part, cuts[i], cuts[i + 1], rel.tol = 1e-10, abs.tol = 1e-15, subdivisions = 1000L)$value
  pchisq(to, df, lower.tail = FALSE) + inside
}

# Exact CI of the noncentrality parameter for an observed t (Steiger & Fouladi 1997).
noncentrality_interval <- function(t, df) {
  upper_tail <- (1 - conf_level) / 2
  cdf <- function(ncp) noncentral_t_cdf(t, df, ncp)
  if (cdf(-ncp_limit) < 1 - upper_tail || cdf(ncp_limit) > upper_tail) return(NULL)
  root <- function(target) uniroot(function(ncp) cdf(ncp) - target, c(-ncp_limit, ncp_limit), tol = 1e-10)$root
  c(root(1 - upper_tail), root(upper_tail))
}
`;

/**
 * analysis.R: base R only (no packages, so it runs on any R a reviewer has), it reads
 * phase_summary.csv and writes comparisons_r.csv, which should equal our comparisons.csv
 * to rounding. It uses R's own t.test, wilcox.test (defaults), p.adjust and pt (or integrate)/uniroot and
 * writes d_z, d_av and g_av from their formulas, with our inclusion rule, limits and
 * reasons written into it from the same constants the service uses.
 *
 * Strings go in as R literals with every non-ASCII character escaped (\uXXXX), so the
 * script reads the same in any locale R runs in.
 */
export function analysisR(options: { metrics: readonly ComparedMetric[]; minNights: number }): string {
  const { metrics, minNights } = options;
  const statistic = STATISTIC_COLUMNS;
  return `# analysis.R: recomputes comparisons.csv from phase_summary.csv with base R only.
# Run it in the folder that holds phase_summary.csv:   Rscript analysis.R
# It writes comparisons_r.csv, which should agree with comparisons.csv to about 1e-6.
# README.md describes every method; the code below is the same rules in R.

min_nights <- ${minNights} # nights a participant needs in both phases of a comparison
conf_level <- ${CONFIDENCE_LEVEL}
ncp_limit <- ${NONCENTRAL_T_NCP_LIMIT} # |ncp| beyond which the service's noncentral t CDF is not checked

metrics <- data.frame(
  key = c(${metrics.map((m) => rString(m.key)).join(', ')}),
  label = c(${metrics.map((m) => rString(m.label)).join(', ')}),
  unit = c(${metrics.map((m) => (m.unit === null ? 'NA_character_' : rString(m.unit))).join(', ')}),
  stringsAsFactors = FALSE
)
comparisons <- data.frame(
  comparison = c(${COMPARISONS.map((c) => rString(c.comparison)).join(', ')}),
  role = c(${COMPARISONS.map((c) => rString(c.role)).join(', ')}),
  first = c(${COMPARISONS.map((c) => rString(c.first)).join(', ')}),
  second = c(${COMPARISONS.map((c) => rString(c.second)).join(', ')}),
  stringsAsFactors = FALSE
)
reasons <- list(
${Object.entries(NOT_COMPUTABLE)
  .map(([name, text]) => `  ${name} = ${rString(text)}`)
  .join(',\n')}
)
columns <- c(${COMPARISON_COLUMNS.map(rString).join(', ')})
statistics <- columns[(match("n_pairs", columns) + 1):(length(columns) - 2)] # between n_pairs and note, left_out

phases <- read.csv("phase_summary.csv", check.names = FALSE, na.strings = "",
                   colClasses = "character", fileEncoding = "UTF-8-BOM")
phases$nights <- as.numeric(phases$nights)
for (key in metrics$key) phases[[key]] <- as.numeric(phases[[key]])

# y - x to the precision phase means carry (the 10th significant digit of the smaller), as
# the service computes it: unrounded, 80.8 - 80.5 and 78.4 - 78.1 differ in their last bits.
paired_difference <- function(x, y) {
  finer <- ifelse(x == 0, abs(y), ifelse(y == 0, abs(x), pmin(abs(x), abs(y))))
  digits <- ifelse(finer == 0, 0, 9 - floor(log10(finer)))
  exact <- finer == 0 | digits < 0 | digits > 22 | abs(y - x) * 10^pmin(pmax(digits, 0), 22) >= 2^53
  ifelse(exact, y - x, round(y - x, pmin(pmax(digits, 0), 22)))
}

# Differences equal in truth made equal again where the phase means' rounding set them apart
# (a mean that repeats in decimal, 1/14 of the nights, keeps 10 significant digits): sizes
# |d| within 10 units of the 10th significant digit of the larger mean of each other are one
# size, the smallest's, each keeping its sign; a size within it of zero is zero. As the service.
tie_differences <- function(x, y, d) {
  larger <- pmax(abs(x), abs(y))
  tolerance <- ifelse(larger == 0, 0, 10^(floor(log10(larger)) - 8))
  size <- abs(d)
  tied <- d
  representative <- NA
  representative_tolerance <- 0
  for (i in order(size)) {
    if (size[i] <= tolerance[i]) {
      tied[i] <- 0
      next
    }
    if (is.na(representative) || size[i] - representative > max(representative_tolerance, tolerance[i])) {
      representative <- size[i]
      representative_tolerance <- tolerance[i]
    }
    tied[i] <- if (d[i] < 0) -representative else representative
  }
  tied
}

# R's t.test stops with "data are essentially constant" below this standard error.
essentially_constant <- function(se, centre) se == 0 || se < 10 * .Machine$double.eps * abs(centre)

${R_NONCENTRALITY_INTERVAL}
# One metric of one comparison: x first phase, y second, aligned by participant.
compare_paired <- function(x, y) {
  n <- length(x)
  value <- list()
  why <- character(0)
  skip <- function(cols, reason) why[cols] <<- reason
  if (n == 0) {
    skip(statistics, reasons$noPairs)
    return(list(n = 0, value = value, why = why))
  }
  d <- tie_differences(x, y, paired_difference(x, y))
  value$${statistic.meanFirst} <- mean(x)
  value$${statistic.meanSecond} <- mean(y)
  value$${statistic.meanDifference} <- mean(d)
  t_test <- c(${[statistic.t, statistic.p, statistic.ciLow, statistic.ciHigh, statistic.dz, statistic.dzLow, statistic.dzHigh].map(rString).join(', ')})
  average_sd <- c(${[statistic.dav, statistic.gav].map(rString).join(', ')})
  if (n < 2) {
    skip(c(${[statistic.sdDifference, statistic.df].map(rString).join(', ')}, t_test, average_sd), reasons$fewerThanTwoPairs)
  } else {
    value$${statistic.sdDifference} <- sd(d)
    value$${statistic.df} <- n - 1
    if (essentially_constant(sqrt(var(d) / n), mean(d))) {
      skip(t_test, reasons$differencesDoNotVary)
    } else {
      test <- t.test(d, conf.level = conf_level) # the paired t test: one sample, the differences
      value$${statistic.t} <- unname(test$statistic)
      value$${statistic.p} <- test$p.value
      value$${statistic.ciLow} <- test$conf.int[1]
      value$${statistic.ciHigh} <- test$conf.int[2]
      value$${statistic.dz} <- mean(d) / sd(d) # Lakens (2013), eq. 6
      ncp <- noncentrality_interval(unname(test$statistic), n - 1)
      if (is.null(ncp)) {
        skip(c(${[statistic.dzLow, statistic.dzHigh].map(rString).join(', ')}), reasons$noncentralityBeyondLimit)
      } else {
        value$${statistic.dzLow} <- ncp[1] / sqrt(n)
        value$${statistic.dzHigh} <- ncp[2] / sqrt(n)
      }
    }
    if (essentially_constant(sd(x) / sqrt(n), mean(x)) && essentially_constant(sd(y) / sqrt(n), mean(y))) {
      skip(average_sd, reasons$phasesDoNotVary)
    } else {
      value$${statistic.dav} <- mean(d) / ((sd(x) + sd(y)) / 2) # Lakens (2013), eq. 10
      if (n < 3) {
        skip(${rString(statistic.gav)}, reasons$hedgesNeedsThreePairs)
      } else {
        value$${statistic.gav} <- value$${statistic.dav} * (1 - 3 / (4 * (n - 1) - 1)) # Hedges & Olkin (1985), df = n - 1
      }
    }
  }
  if (all(d == 0)) {
    skip(c(${[statistic.wilcoxonV, statistic.wilcoxonP, statistic.wilcoxonMethod].map(rString).join(', ')}), reasons$allDifferencesZero)
  } else {
    # Exact only as R chose before 4.6 (fewer than 50 non-zero differences, no ties, no
    # zeros), said explicitly: from R 4.6 the default gives an exact conditional p with ties.
    nonzero <- d[d != 0]
    exact <- length(nonzero) < 50 && !anyDuplicated(abs(nonzero)) && length(nonzero) == length(d)
    test <- suppressWarnings(wilcox.test(d, exact = exact, correct = TRUE)) # paired: the differences
    value$${statistic.wilcoxonV} <- unname(test$statistic)
    value$${statistic.wilcoxonP} <- test$p.value
    value$${statistic.wilcoxonMethod} <- if (grepl("exact", test$method)) "exact" else "normal approximation"
  }
  list(n = n, value = value, why = why)
}

# "reason (column, column); reason (column)", reasons in the order their first column comes.
note_of <- function(why) {
  why <- why[order(match(names(why), columns))]
  if (length(why) == 0) return(NA_character_)
  paste(vapply(unique(why), function(reason) {
    paste0(reason, " (", paste(names(why)[why == reason], collapse = ", "), ")")
  }, ""), collapse = "; ")
}

cell <- function(x) if (is.null(x)) NA_character_ else if (is.character(x)) x else sprintf("%.17g", x)

rows <- list()
for (i in seq_len(nrow(comparisons))) {
  cmp <- comparisons[i, ]
  a <- phases[phases$phase == cmp$first & phases$nights >= min_nights, ]
  b <- phases[phases$phase == cmp$second & phases$nights >= min_nights, ]
  ids <- sort(intersect(a$research_id, b$research_id), method = "radix")
  results <- lapply(metrics$key, function(key) {
    x <- a[[key]][match(ids, a$research_id)]
    y <- b[[key]][match(ids, b$research_id)]
    complete <- !is.na(x) & !is.na(y)
    r <- compare_paired(x[complete], y[complete])
    r$left_out <- ids[!complete]
    r
  })
  p <- vapply(results, function(r) if (is.null(r$value$${statistic.p})) NA_real_ else r$value$${statistic.p}, 0)
  p_holm <- p.adjust(p, "holm")
  for (j in seq_along(results)) {
    r <- results[[j]]
    why <- r$why
    if (is.na(p_holm[j])) why[${rString(statistic.pHolm)}] <- why[[${rString(statistic.p)}]] else r$value$${statistic.pHolm} <- p_holm[j]
    row <- c(comparison = cmp$comparison, role = cmp$role, metric = metrics$key[j], label = metrics$label[j],
             unit = metrics$unit[j],
             n_pairs = as.character(r$n),
             vapply(statistics, function(s) cell(r$value[[s]]), ""),
             note = note_of(why),
             left_out = if (length(r$left_out) == 0) NA_character_ else paste(r$left_out, collapse = " "))
    rows[[length(rows) + 1]] <- row
  }
}
out <- as.data.frame(do.call(rbind, rows), stringsAsFactors = FALSE)
names(out) <- columns
write.csv(out, "comparisons_r.csv", row.names = FALSE, na = "", fileEncoding = "UTF-8")
`;
}

/** An R string literal: JSON's escapes are R's, and non-ASCII becomes \uXXXX (\U{XXXXX} beyond the BMP). */
export function rString(text: string): string {
  return [...JSON.stringify(text)]
    .map((char) => {
      const codePoint = char.codePointAt(0)!;
      if (codePoint >= 0x20 && codePoint <= 0x7e) return char;
      return codePoint > 0xffff ? `\\U{${codePoint.toString(16)}}` : `\\u${codePoint.toString(16).padStart(4, '0')}`;
    })
    .join('');
}
