import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundMean } from '../export/phase-means.ts';
import { analysisR, R_NONCENTRALITY_INTERVAL } from './analysis-r.ts';
import { NONCENTRAL_T_NCP_LIMIT } from './distributions.ts';
import { noncentralityInterval } from './noncentral-interval.ts';
import { CONFIDENCE_LEVEL } from './methods.ts';
import {
  COMPARISON_COLUMNS,
  type ComparedMetric,
  type ComparisonRow,
  type Phase,
  type PhaseSummaryRow,
  compareAllPhases,
  comparisonRecord,
} from './analysis.ts';

/**
 * analysis.R, run by R itself, must reproduce our comparisons table: every number to 1e-6
 * (p-values also to 1e-6 relative) and the same empty cells for the same reasons. The data
 * are random but seeded, and built to reach every path: n from 0 to 60, missing values,
 * ties and zero differences, exact and normal Wilcoxon p on both sides of n = 50,
 * differences and phases that do not vary, and a d_z interval beyond the noncentral limit.
 *
 * Needs R (`Rscript`): on Debian `apt-get install -y r-base-core`. Without it this test
 * fails, on purpose: a skipped check against R would look like a passed one.
 */

const execFileAsync = promisify(execFile);
const MIN_NIGHTS = 10;
const PHASES: readonly Phase[] = ['polyester', 'washout', 'linen'];

const METRICS: readonly ComparedMetric[] = [
  { key: 'sleep_score', label: 'Sleep score', unit: 'points' },
  { key: 'deep_sleep', label: 'Deep sleep, "ring"', unit: 'minutes' },
  { key: 'sleep_quality', label: 'Sleep quality (1–10)', unit: null },
  { key: 'hot_nights', label: 'Woke up hot (share of nights)', unit: 'share 0-1' },
  { key: 'shifted', label: 'Same shift for everyone', unit: null },
  { key: 'tenths', label: 'Same shift in tenths (80.5 → 80.8)', unit: null },
  { key: 'straddle', label: 'Same shift across a power of ten (9.876543215 → 12.3456789)', unit: null },
  { key: 'fourteenths', label: 'One night in 14 more for everyone, means of 10 digits (1/14 → 2/14)', unit: 'share 0-1' },
  { key: 'signs', label: 'One night in 14 more or fewer, means of 10 digits', unit: 'share 0-1' },
  { key: 'same', label: 'No change at all', unit: null },
  { key: 'flat', label: 'Nobody varies', unit: null },
  { key: 'rare', label: 'Two participants', unit: null },
  { key: 'empty', label: 'Never recorded', unit: null },
  { key: 'strong', label: 'Huge effect', unit: null },
  { key: 'enormous', label: 'Beyond the noncentral range', unit: null },
];

/** Mulberry32: a small seeded generator, so every run sees the same data. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Phase means as the export would hold them, rounded to 4 decimals: R reads short decimals
 * back to the very same doubles (a 17-digit one it misreads by an ulp about once in 20,000),
 * so both sides see identical data and identical ties.
 */
function phaseSummaries(): PhaseSummaryRow[] {
  const random = seeded(20_131_126);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  const maybe = (share: number, value: () => number) => (random() < share ? null : round(value()));
  const effect: Record<Phase, number> = { polyester: 0, washout: 1, linen: 2.5 };
  return Array.from({ length: 64 }, (_, i) => {
    const researchId = `SW-${String(i).padStart(8, '0')}`;
    const base = {
      score: 75 + 8 * normal(),
      deep: 60 + 15 * normal(),
      quality: 6 + 1.5 * normal(),
      eighths: Math.floor(random() * 80) / 8,
      fourteenths: 1 + ((i * 7) % 13), // not drawn: the other metrics keep their draws
    };
    return PHASES.flatMap((phase, p): PhaseSummaryRow[] => {
      if (random() < 0.04) return [];
      const nights = random() < 0.15 ? 3 + Math.floor(random() * 12) : 14;
      const values: Record<string, number | null> = {
        sleep_score: maybe(0.03, () => base.score + effect[phase] + 3 * normal()),
        deep_sleep: maybe(0.35, () => base.deep + 2 * effect[phase] + 8 * normal()),
        sleep_quality: maybe(0.05, () => Math.min(10, Math.max(1, Math.round(base.quality + effect[phase] / 2 + normal())))),
        hot_nights: maybe(0.05, () => Math.floor(random() * 15) / 14),
        shifted: base.eighths + p / 4,
        // decimals binary cannot hold: 80.8 − 80.5 and 78.4 − 78.1 differ in their last bits
        tenths: round(70 + (base.eighths * 8) / 10 + 0.3 * p),
        // 2.469135685 apart in decimal, 2.4691356849999995 and 2.4691356850000004 in binary
        straddle: [i % 2 === 0 ? 9.876543215 : 7.530864315, 11, i % 2 === 0 ? 12.3456789 : 10][p]!,
        // as the export writes them (roundMean): 0.07142857143, 0.1428571429 ... one night
        // more apart, in differences that come out apart in their last digit
        fourteenths: roundMean((base.fourteenths + (phase === 'linen' ? 1 : 0)) / 14),
        signs: roundMean((base.fourteenths + (phase === 'linen' ? (i % 3 === 0 ? -1 : 1) : 0)) / 14),
        same: base.eighths,
        flat: 5 + p / 2,
        rare: i === 0 || (i === 1 && phase !== 'washout') ? round(10 * random()) : null,
        empty: null,
        strong: maybe(0.03, () => base.score + (phase === 'linen' ? 10 : 0) + 0.2 * normal()),
        // not drawn: differences of 10 ± 0.002, t in the tens of thousands
        enormous: round(70 + (phase === 'linen' ? 10 : 0) + 0.001 * (((i + p) % 3) - 1)),
      };
      return [{ researchId, phase, nights, values }];
    });
  }).flat();
}

/** RFC 4180, as R's write.csv writes it: quoted fields, "" for a quote inside. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      rows.push([...row, field.replace(/\r$/, '')]);
      row = [];
      field = '';
    } else field += char;
  }
  return rows;
}

/**
 * R 4.6 changed wilcox.test's default `exact` (an exact conditional p with ties): run under
 * any R, the script must choose it itself. This R is older; a wilcox.test that refuses to be
 * left to its default tells.
 */
const NO_DEFAULT_EXACT = `wilcox.test <- function(x, ..., exact = NULL) {
  if (is.null(exact)) stop("exact left to R's default, which R 4.6 changed")
  stats::wilcox.test(x, ..., exact = exact)
}
source("analysis.R")`;

async function runR(dir: string): Promise<void> {
  try {
    await execFileAsync('Rscript', ['-e', NO_DEFAULT_EXACT], { cwd: dir });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('Rscript not found: this test needs R. Install it (Debian: apt-get install -y r-base-core) and run again.', {
        cause: error,
      });
    }
    throw error;
  }
}

const P_VALUES = new Set(['p', 'wilcoxon_p', 'p_holm']);
const TEXT = new Set(['comparison', 'role', 'metric', 'label', 'unit', 'wilcoxon_method', 'note', 'left_out']);

describe('analysis.R run by R reproduces the comparisons table', () => {
  let dir: string;
  let ours: ComparisonRow[];
  let theirs: Record<string, string>[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sleepweave-analysis-r-'));
    const rows = phaseSummaries();
    const summaryCsv = stringify(
      rows.map((row) => ({ research_id: row.researchId, phase: row.phase, nights: row.nights, ...row.values })),
      { header: true, columns: ['research_id', 'phase', 'nights', ...METRICS.map((m) => m.key)] },
    );
    await writeFile(join(dir, 'phase_summary.csv'), summaryCsv);
    await writeFile(join(dir, 'analysis.R'), analysisR({ metrics: METRICS, minNights: MIN_NIGHTS }));
    ours = compareAllPhases(rows, METRICS, MIN_NIGHTS);
    await runR(dir);
    const [header, ...body] = parseCsv(await readFile(join(dir, 'comparisons_r.csv'), 'utf8'));
    theirs = body.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i] ?? ''])));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the data reach every path (else agreement would prove little)', () => {
    const primary = (metric: string) => ours.find((row) => row.comparison === 'polyester_vs_linen' && row.metric === metric)!;
    expect(primary('sleep_score').n).toBeGreaterThanOrEqual(50);
    expect(primary('sleep_score').wilcoxonMethod).toBe('normal approximation');
    expect(primary('deep_sleep').n).toBeLessThan(50);
    expect(primary('deep_sleep').wilcoxonMethod).toBe('exact');
    expect(primary('sleep_quality').notComputable).toEqual({});
    expect(primary('shifted').t).toBeNull();
    expect(primary('tenths')).toMatchObject({ sdDifference: 0, t: null, wilcoxonMethod: 'normal approximation' });
    expect(primary('straddle')).toMatchObject({ meanDifference: 2.469135685, sdDifference: 0, t: null });
    expect(primary('fourteenths')).toMatchObject({ sdDifference: 0, t: null, dz: null, wilcoxonMethod: 'normal approximation' });
    expect(primary('signs').t).not.toBeNull();
    expect(primary('signs').wilcoxonMethod).toBe('normal approximation'); // +1/14 and −1/14 tied in |d|
    expect(primary('same').wilcoxonV).toBeNull();
    expect(primary('flat').dav).toBeNull();
    expect(primary('rare').n).toBe(2);
    expect(primary('rare').gav).toBeNull();
    expect(ours.some((row) => row.metric === 'rare' && row.n === 1)).toBe(true);
    expect(primary('empty').n).toBe(0);
    // its interval's limits lie beyond |ncp| = 37.62, where analysis.R integrates
    expect(primary('strong').t).toBeGreaterThan(38 + 2 * Math.sqrt(1 + 38 ** 2 / (2 * primary('strong').df!)));
    expect(primary('strong').dzLow).not.toBeNull();
    expect(primary('enormous').dz).not.toBeNull();
    expect(primary('enormous').dzLow).toBeNull();
    expect(ours.filter((row) => row.pHolm !== null && row.pHolm !== row.p).length).toBeGreaterThan(0);
    expect(primary('deep_sleep').leftOut).not.toBeNull(); // participants without that metric in a phase
  });

  it('R writes the same columns and rows', () => {
    expect(Object.keys(theirs[0]!)).toEqual([...COMPARISON_COLUMNS]);
    expect(theirs.map((row) => `${row.comparison} ${row.metric}`)).toEqual(ours.map((row) => `${row.comparison} ${row.metric}`));
  });

  it('every value agrees with R: numbers to 1e-6, empty cells and notes exactly', () => {
    const disagreements: string[] = [];
    ours.forEach((row, i) => {
      const record = comparisonRecord(row);
      const r = theirs[i]!;
      for (const column of COMPARISON_COLUMNS) {
        const mine = record[column];
        const cell = r[column]!;
        const where = `${row.comparison} ${row.metric} ${column}: ours ${mine}, R ${cell}`;
        if (mine === null || cell === '') {
          if (!(mine === null && cell === '')) disagreements.push(where);
        } else if (TEXT.has(column)) {
          if (mine !== cell) disagreements.push(where);
        } else {
          const ourValue = Number(mine);
          const rValue = Number(cell);
          const difference = Math.abs(ourValue - rValue);
          const relative = P_VALUES.has(column) && rValue !== 0 ? difference / Math.abs(rValue) : 0;
          if (!(difference <= 1e-6 && relative <= 1e-6)) disagreements.push(where);
        }
      }
    });
    expect(disagreements).toEqual([]);
  });
});

describe("analysis.R's exact interval of the noncentrality", () => {
  it("agrees with the service's over a sweep of t and df, large t included, and never stops", async () => {
    // every 8th of the sweep where R's integrate once stopped at 78 of 2,452 intervals (t from −100 to
    // 120, df 1 to 1,499), those that stopped among them, and t near where the interval is left empty
    const cases: [t: number, df: number][] = [];
    for (const df of [1, 9, 49, 99, 624, 1499]) for (let t = -100; t <= 120; t += 5.84) cases.push([Number(t.toFixed(2)), df]);
    cases.push([32.2, 49], [104.4, 99], [118.27, 99], [-93.43, 624], [-74.45, 624], [74.47, 624], [113.89, 1499]);
    cases.push([445, 1], [447, 1], [830, 49], [840, 49]);
    const dir = await mkdtemp(join(tmpdir(), 'sleepweave-noncentrality-r-'));
    try {
      await writeFile(join(dir, 'cases.csv'), ['t,df', ...cases.map(([t, df]) => `${t},${df}`)].join('\n'));
      const script = `conf_level <- ${CONFIDENCE_LEVEL}
ncp_limit <- ${NONCENTRAL_T_NCP_LIMIT}
${R_NONCENTRALITY_INTERVAL}
cases <- read.csv("cases.csv")
out <- t(sapply(seq_len(nrow(cases)), function(i) {
  r <- noncentrality_interval(cases$t[i], cases$df[i])
  if (is.null(r)) c(NA, NA) else r
}))
write.csv(data.frame(low = out[, 1], high = out[, 2]), "intervals.csv", row.names = FALSE)`;
      await writeFile(join(dir, 'interval.R'), script);
      await execFileAsync('Rscript', ['interval.R'], { cwd: dir });
      const [, ...rows] = parseCsv(await readFile(join(dir, 'intervals.csv'), 'utf8'));
      expect(rows).toHaveLength(cases.length);
      const disagreements: string[] = [];
      cases.forEach(([t, df], i) => {
        const ours = noncentralityInterval(t, df, CONFIDENCE_LEVEL);
        const [low, high] = rows[i]!.map((cell) => (cell === 'NA' ? null : Number(cell)));
        if (ours === null || low === null || high === null) {
          if (!(ours === null && low === null && high === null))
            disagreements.push(`t ${t}, df ${df}: ours ${JSON.stringify(ours)}, R ${low} ${high}`);
          return;
        }
        // to 1e-6 in d_z (λ/√n), as the comparisons are checked
        const scale = Math.sqrt(df + 1);
        if (Math.abs(ours.low - low!) / scale > 1e-6 || Math.abs(ours.high - high!) / scale > 1e-6)
          disagreements.push(`t ${t}, df ${df}: ours ${ours.low} ${ours.high}, R ${low} ${high}`);
      });
      expect(disagreements).toEqual([]);
      expect(cases.filter(([t, df]) => noncentralityInterval(t, df, CONFIDENCE_LEVEL) === null).length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
