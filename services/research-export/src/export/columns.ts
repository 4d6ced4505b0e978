import { HormonalStage, SleepwearMaterial, type SleepLogFieldSpec } from '@sleepweave/contracts';
import { NIGHT_FIELDS, QA_RULES } from './qa.ts';

export { NIGHT_FIELDS };

/**
 * Every column of every research file, described once: the writers take their column
 * order from here and the codebook (REDCap-style data dictionary) is made from it, so the
 * codebook covers every column by construction.
 */

export type ColumnType = 'text' | 'integer' | 'decimal' | 'date' | 'datetime' | 'yes/no' | 'category';

export interface Column {
  name: string;
  label: string;
  type: ColumnType;
  unit: string | null;
  /** The range or the list of values. */
  allowed: string | null;
  notes: string | null;
}

export interface FileSpec {
  file: string;
  description: string;
  columns: readonly Column[];
}

const column = (name: string, label: string, type: ColumnType, rest: Partial<Omit<Column, 'name' | 'label' | 'type'>> = {}): Column => ({
  name,
  label,
  type,
  unit: rest.unit ?? null,
  allowed: rest.allowed ?? null,
  notes: rest.notes ?? null,
});

const YES_NO = 'yes, no';
const PHASES = 'polyester, washout, linen';

/** The metrics compared across phases: every number, and every yes/no as a share of nights. */
export const METRICS = NIGHT_FIELDS.filter((field) => field.kind !== 'choice').map((field) => ({
  key: field.key,
  /** Where its value sits in a night's values. */
  index: NIGHT_FIELDS.indexOf(field),
  column: field.column,
  label: field.kind === 'boolean' ? `${field.label} (share of nights)` : field.label,
  unit: field.kind === 'boolean' ? 'share 0-1' : field.unit,
  kind: field.kind,
}));
export type Metric = (typeof METRICS)[number];

/**
 * A field the sleep log's form starts at a value (the spec's slider at 7, the yes/no
 * questions at no, heat wake-ups at 0): saved as it was, that value may be a night she did
 * not answer, as the form cannot tell (said, for an analysis to weigh it).
 */
function formDefaultNote(field: SleepLogFieldSpec): string {
  const value = formDefaultOf(field);
  return value === null ? '' : `The form starts at ${value}: a ${value} may be a night she left as it was.`;
}

/** The value the form starts a field at, as the CSV writes it; null for one that starts empty. */
function formDefaultOf(field: SleepLogFieldSpec): string | null {
  if (!('formDefault' in field) || field.formDefault === undefined) return null;
  return typeof field.formDefault === 'boolean' ? (field.formDefault ? 'yes' : 'no') : String(field.formDefault);
}

/** The README's line on the answers the form starts at a value: "sleep_quality_1_10 (7), dream_recall (no), ...". */
export const FORM_DEFAULTS = NIGHT_FIELDS.flatMap((field) => {
  const value = formDefaultOf(field);
  return value === null ? [] : [`\`${field.column}\` (${value})`];
}).join(', ');

function fieldColumn(field: SleepLogFieldSpec): Column {
  const type: ColumnType =
    field.kind === 'integer'
      ? 'integer'
      : field.kind === 'decimal'
        ? 'decimal'
        : field.kind === 'duration'
          ? 'integer'
          : field.kind === 'boolean'
            ? 'yes/no'
            : 'category';
  const range = 'min' in field && 'max' in field ? `${field.min}-${field.max}` : null;
  const allowed = field.kind === 'choice' ? (field.options ?? []).join(', ') : field.kind === 'boolean' ? YES_NO : range;
  return column(field.column, field.label, type, {
    unit: field.unit,
    allowed,
    notes: [
      field.description,
      field.source === 'ring' ? 'From the sleep ring.' : field.source === 'self' ? 'Her own rating.' : '',
      formDefaultNote(field),
      'Empty: not recorded. As she last saved it: a value a QA rule finds implausible is kept here, named in qa_flags and qa_report.csv, and counted as missing in phase_summary.csv.',
    ]
      .filter(Boolean)
      .join(' '),
  });
}

export const RESEARCH_ID = column('research_id', 'Research id', 'text', {
  allowed: 'SW- and 8 characters of Crockford base 32',
  notes: 'Drawn at random when her consent reached the research service; stable across runs; never derived from her account.',
});

export const PARTICIPANTS_FILE: FileSpec = {
  file: 'participants.csv',
  description: 'One row per enrolled participant.',
  columns: [
    RESEARCH_ID,
    column('age_band', 'Age at the start of her study', 'category', {
      unit: 'years',
      allowed: '5-year bands, e.g. 45-49',
      notes: 'From her date of birth at her study start date; empty when she gave none. Exact dates of birth never leave the service.',
    }),
    column('hormonal_stage', 'Hormonal stage', 'category', {
      allowed: HormonalStage.options.join(', '),
      notes: 'As in her profile at the run; empty when not given.',
    }),
    column('consent_date', 'Study start (consent) date', 'date', { notes: 'The day she consented, in her time zone: study day 1.' }),
    column('nights_polyester', 'Nights logged in polyester', 'integer', { allowed: '0-14' }),
    column('nights_washout', 'Nights logged in the washout (cotton)', 'integer', { allowed: '0-14' }),
    column('nights_linen', 'Nights logged in linen', 'integer', { allowed: '0-14' }),
    column('nights_after_study', 'Nights logged after day 42', 'integer'),
    column('journal_entries', 'Journal entries during her 42 days', 'integer', { notes: 'How many; never what she wrote.' }),
    column('study_complete', 'Her 42 nights had all ended at the run', 'yes/no', {
      allowed: YES_NO,
      notes:
        'At 04:00 her time after night 42. "no" for someone included: an interim row, her linen phase still under way (report a completers-only analysis beside the primary one).',
    }),
    column('included_primary', 'In the primary analysis (polyester vs linen)', 'yes/no', { allowed: YES_NO }),
    column('exclusion_reason', 'Why not in the primary analysis', 'text', {
      notes:
        'Empty when included (rules too_few_nights, demo_account). Begins "still in the study" while her study runs and the nights she has not logged yet (to come, or to log late) can bring her to the minimum.',
    }),
  ],
};

export const NIGHTS_FILE: FileSpec = {
  file: 'nights.csv',
  description: 'One row per logged night of an enrolled participant, values as she last saved them (her comments are never exported).',
  columns: [
    RESEARCH_ID,
    column('date', 'Night of', 'date', { notes: 'The evening the night began, in her time zone.' }),
    column('study_day', 'Study day', 'integer', { allowed: '1-42; 43 and more after the study', notes: 'Day 1 is her consent date.' }),
    column('phase', 'Phase', 'category', {
      allowed: `${PHASES}, completed`,
      notes: 'Days 1-14 polyester, 15-28 washout (cotton), 29-42 linen.',
    }),
    column('recommended_material', "The phase's material", 'category', { allowed: SleepwearMaterial.options.join(', ') }),
    ...NIGHT_FIELDS.map((field) => fieldColumn(field)),
    column('material_matches', "Worn material is the phase's", 'yes/no', {
      allowed: YES_NO,
      notes:
        'Empty when the material worn was not recorded. After day 42 (phase completed) compared with the cotton recommended then: those nights are left out by after_study, so material_mismatch does not count them.',
    }),
    column('revisions', 'Times the night was changed', 'integer'),
    column('recorded_at', 'First recorded at', 'datetime', { notes: 'UTC, ISO 8601.' }),
    column('analysed', 'Enters the phase means', 'yes/no', {
      allowed: YES_NO,
      notes:
        'No for nights excluded by a QA rule (material_mismatch, before_night_ended, after_study) and every night of an excluded demo account (demo_account).',
    }),
    column('qa_flags', 'QA rules this night hit', 'text', {
      allowed: Object.keys(QA_RULES).join(', '),
      notes: 'Separated by semicolons; see qa_report.md.',
    }),
  ],
};

export const PHASE_SUMMARY_FILE: FileSpec = {
  file: 'phase_summary.csv',
  description:
    'One row per participant and phase with at least one analysed night (a phase without any has no row; nights.csv says which of her nights were analysed, and why not): the unit of analysis is her phase mean, never the night.',
  columns: [
    RESEARCH_ID,
    column('phase', 'Phase', 'category', { allowed: PHASES }),
    column('nights', 'Analysed nights in the phase', 'integer', { allowed: '1-14' }),
    ...METRICS.map((metric) =>
      column(metric.column, `Mean ${metric.label}`, 'decimal', {
        unit: metric.unit,
        notes: 'Mean over her analysed nights of the phase that have a value; empty when none has.',
      }),
    ),
  ],
};

const comparisonNumber = (name: string, label: string, notes: string | null = null, unit: string | null = null) =>
  column(name, label, 'decimal', { notes, unit });

export const COMPARISONS_FILE: FileSpec = {
  file: 'comparisons.csv',
  description: "For every metric and every pair of phases, the paired comparison of participants' phase means.",
  columns: [
    column('comparison', 'Phases compared (first vs second)', 'category', {
      allowed: 'polyester_vs_linen, polyester_vs_washout, washout_vs_linen',
    }),
    column('role', 'Primary or secondary', 'category', {
      allowed: 'primary, secondary',
      notes: "Polyester vs linen is the study's question.",
    }),
    column('metric', 'Metric (phase_summary column)', 'category', { allowed: METRICS.map((m) => m.column).join(', ') }),
    column('label', 'Metric label', 'text'),
    column('unit', 'Unit of the means, the mean difference, its SD and CI', 'text', {
      notes: "The metric's unit in phase_summary.csv (a share of nights 0-1 for a yes/no); empty for a score without one.",
    }),
    column('n_pairs', 'Participants with both phase means', 'integer', {
      notes: 'Each with at least RESEARCH_MIN_NIGHTS_PER_PHASE analysed nights in both phases.',
    }),
    comparisonNumber('mean_first', 'Mean of the first phase'),
    comparisonNumber('mean_second', 'Mean of the second phase'),
    comparisonNumber('mean_difference', 'Mean difference (second - first)'),
    comparisonNumber('sd_difference', 'SD of the differences', 'n - 1 denominator.'),
    comparisonNumber('t', 'Paired t'),
    column('df', 'Degrees of freedom', 'integer', { notes: 'n_pairs - 1.' }),
    comparisonNumber('p', 'Two-sided p of the paired t test'),
    comparisonNumber('ci95_low', 'Mean difference, 95% CI lower', 't distribution.'),
    comparisonNumber('ci95_high', 'Mean difference, 95% CI upper', 't distribution.'),
    comparisonNumber('d_z', "Cohen's d_z", 'Mean difference / SD of the differences (Lakens 2013, eq. 6).'),
    comparisonNumber('d_z_ci95_low', "Cohen's d_z, 95% CI lower", 'Method in README.md.'),
    comparisonNumber('d_z_ci95_high', "Cohen's d_z, 95% CI upper", 'Method in README.md.'),
    comparisonNumber('d_av', "Cohen's d_av", "Mean difference / mean of the two phases' SDs (Lakens 2013, eq. 10)."),
    comparisonNumber('g_av', "Hedges' g_av", 'd_av with the small-sample correction named in README.md.'),
    comparisonNumber(
      'wilcoxon_v',
      'Wilcoxon signed-rank V',
      'Sum of the ranks of positive differences (zero differences dropped), as R reports it.',
    ),
    comparisonNumber(
      'wilcoxon_p',
      'Wilcoxon two-sided p',
      "Exact for fewer than 50 non-zero differences without ties or zero differences; else the normal approximation with continuity correction (R's wilcox.test defaults).",
    ),
    column('wilcoxon_method', 'How the Wilcoxon p was computed', 'category', { allowed: 'exact, normal approximation' }),
    comparisonNumber('p_holm', 'Holm-adjusted p', 'Holm across the metrics of the same comparison (of the t-test p).'),
    column('note', 'Why a value is empty', 'text', { notes: 'e.g. "not computable: fewer than 2 pairs".' }),
    column('left_out', 'Participants of the comparison left out of this metric', 'text', {
      notes:
        "Research ids, space-separated: in the comparison (enough nights in both phases) but with no mean of this metric in one of them (not recorded on any analysed night of it). n_pairs plus these is the comparison's participants; empty for none.",
    }),
  ],
};

export const QA_FILE: FileSpec = {
  file: 'qa_report.csv',
  description: 'One row per hit of a QA rule (qa_report.md explains each rule).',
  columns: [
    column('rule', 'QA rule', 'category', { allowed: Object.keys(QA_RULES).join(', ') }),
    column('action', 'What the rule does', 'category', { allowed: 'flag, value excluded, night excluded, participant excluded' }),
    RESEARCH_ID,
    column('date', 'Night of', 'date', { notes: 'Empty for a rule about a phase or a participant.' }),
    column('phase', 'Phase', 'category', { allowed: `${PHASES}, completed` }),
    column('field', 'Column concerned', 'text'),
    column('value', 'Value found', 'text'),
    column('detail', 'Detail', 'text'),
  ],
};

export const CODEBOOK_FILE: FileSpec = {
  file: 'codebook.csv',
  description: 'This data dictionary: every column of every file.',
  columns: [
    column('file', 'File', 'text'),
    column('column', 'Column', 'text'),
    column('label', 'Label', 'text'),
    column('type', 'Type', 'category', { allowed: 'text, integer, decimal, date, datetime, yes/no, category' }),
    column('unit', 'Unit', 'text'),
    column('allowed', 'Allowed values or range', 'text'),
    column('notes', 'Notes', 'text'),
  ],
};

export const RESEARCH_FILES: readonly FileSpec[] = [
  PARTICIPANTS_FILE,
  NIGHTS_FILE,
  PHASE_SUMMARY_FILE,
  COMPARISONS_FILE,
  QA_FILE,
  CODEBOOK_FILE,
];

/** The codebook rows: every column of every CSV file, the codebook's own included. */
export function codebookRows(files: readonly FileSpec[] = RESEARCH_FILES): string[][] {
  return files.flatMap((spec) =>
    spec.columns.map((c) => [spec.file, c.name, c.label, c.type, c.unit ?? '', c.allowed ?? '', c.notes ?? '']),
  );
}
