import {
  addDays,
  calendarDateIn,
  daysBetween,
  nightEndTime,
  SLEEP_LOG_FIELD_LIST,
  sleepExceedsBed,
  stagesExceedSleep,
  type StudyPhase,
} from '@sleepweave/contracts';

/**
 * The quality rules of a research run: what each checks, and what it does to the
 * analysis. Every rule is listed in qa_report.md with how many rows it hit and which, so
 * every exclusion is explained. Pure: rows in, flags out.
 */

/** What a rule does to the analysis. */
export type QaAction = 'flag' | 'value excluded' | 'night excluded' | 'participant excluded';

export interface QaRule {
  id: string;
  description: string;
  action: QaAction;
  /** What the action means, in words, for qa_report.md and the README. */
  consequence: string;
}

export const EFFICIENCY_TOLERANCE_POINTS = 5;

export const QA_RULES = {
  missing_nights: {
    id: 'missing_nights',
    description: 'Nights not logged in a phase, among the nights of that phase that had ended at the run (at 04:00 her time).',
    action: 'flag',
    consequence: 'Nothing is imputed: her phase mean is the mean of the nights she logged.',
  },
  out_of_range: {
    id: 'out_of_range',
    description: "A value outside the field's allowed range or list (docs/study-protocol.md).",
    action: 'value excluded',
    consequence: 'That value is treated as missing; the rest of the night is analysed.',
  },
  material_mismatch: {
    id: 'material_mismatch',
    description: "The sleepwear worn is not the phase's material.",
    action: 'night excluded',
    consequence: 'The night is left out of her phase means (a per-protocol analysis of the fabric worn).',
  },
  material_not_recorded: {
    id: 'material_not_recorded',
    description: 'The sleepwear worn was not recorded (the log lets her leave it out).',
    action: 'flag',
    consequence:
      "The night is analysed as if worn as the phase asks, which cannot be checked: a strict per-protocol analysis leaves these nights out (nights.csv's qa_flags).",
  },
  sleep_exceeds_bed: {
    id: 'sleep_exceeds_bed',
    description: 'Total sleep is longer than time in bed.',
    action: 'value excluded',
    consequence: 'Total sleep, time in bed and sleep efficiency of that night are treated as missing.',
  },
  stages_exceed_sleep: {
    id: 'stages_exceed_sleep',
    description: 'REM plus deep sleep is longer than total sleep.',
    action: 'value excluded',
    consequence: 'REM, deep and total sleep of that night are treated as missing.',
  },
  efficiency_inconsistent: {
    id: 'efficiency_inconsistent',
    description: `Sleep efficiency differs from 100 x total sleep / time in bed by more than ${EFFICIENCY_TOLERANCE_POINTS} percentage points.`,
    action: 'flag',
    consequence: 'Kept: rings compute efficiency in their own way; the flag lets an analyst check.',
  },
  recorded_late: {
    id: 'recorded_late',
    description:
      'The night was first recorded long after it (more than RESEARCH_LATE_RECORD_DAYS calendar days after its morning, in the time zone she logged it in).',
    action: 'flag',
    consequence: 'Kept: ring data does not fade, but her own ratings may be recalled less well.',
  },
  recorded_early: {
    id: 'recorded_early',
    description:
      'The night was first recorded before it ended (04:00 on its morning, in the time zone she logged it in), and saved again after it had ended (changed, or unchanged as the sleep log asks her to).',
    action: 'flag',
    consequence: 'Kept as last changed, once the night was over (revisions are in nights.csv).',
  },
  before_night_ended: {
    id: 'before_night_ended',
    description:
      "The night was recorded before it ended (04:00 on its morning, in the time zone she logged it in) and not saved again after: neither her ring's data nor her ratings could be that night's (the product takes a night up to a day ahead).",
    action: 'night excluded',
    consequence: 'In nights.csv, but in no phase mean. Saved again after the night had ended, it would have been kept (recorded_early).',
  },
  revised: {
    id: 'revised',
    description: 'The night was saved again after it was first recorded (changed, or confirmed unchanged once it had ended).',
    action: 'flag',
    consequence: 'Kept as last revised; the number of revisions is in nights.csv.',
  },
  after_study: {
    id: 'after_study',
    description: 'A night logged after the 42 days of her study (phase "completed").',
    action: 'night excluded',
    consequence: 'In nights.csv, but in no phase mean.',
  },
  too_few_nights: {
    id: 'too_few_nights',
    description: 'Fewer analysed nights in a phase than RESEARCH_MIN_NIGHTS_PER_PHASE.',
    action: 'participant excluded',
    consequence:
      'She is left out of every comparison that needs that phase. The detail says how many of the phase\'s nights are still to come for her; while her study runs and the nights she has not logged yet (to come, or to log late) can still bring her to the minimum in polyester and linen, her exclusion reason begins "still in the study".',
  },
  demo_account: {
    id: 'demo_account',
    description: 'A demo account (`npm run demo`, e-mail at demo.sleepweave.test), while RESEARCH_EXCLUDE_DEMO is true.',
    action: 'participant excluded',
    consequence: 'Her nights are in nights.csv (not analysed), but in no phase mean and no comparison.',
  },
} as const satisfies Record<string, QaRule>;
export type QaRuleId = keyof typeof QA_RULES;

/** One hit of a rule: which participant, night and field (when it is about one). */
export interface QaHit {
  rule: QaRuleId;
  researchId: string;
  date: string | null;
  phase: StudyPhase | null;
  field: string | null;
  value: string | null;
  detail: string | null;
}

/** A field of the night as research keeps it (all but her free-text comments). */
export const NIGHT_FIELDS = SLEEP_LOG_FIELD_LIST.filter((field) => field.kind !== 'text');
export type NightField = (typeof NIGHT_FIELDS)[number];

/** A night's value of a field: numbers as stored, a choice as its text, a yes/no as a boolean; null when not recorded. */
export type NightValue = number | string | boolean | null;

/**
 * A night's research fields in {@link NIGHT_FIELDS} order. An array, not an object keyed by
 * field: a run reads, checks, sums and writes some 24 values of every night of the cohort,
 * and by position that costs neither a lookup by name nor an object per night.
 */
export type NightValues = NightValue[];

/** Where each field's value sits in {@link NightValues}. */
export const FIELD_INDEX = Object.fromEntries(NIGHT_FIELDS.map((field, i) => [field.key, i])) as Record<NightField['key'], number>;

/** The values of a night from its fields by key (a missing field is null). */
export function nightValues(fields: Partial<Record<NightField['key'], NightValue>>): NightValues {
  return NIGHT_FIELDS.map((field) => fields[field.key] ?? null);
}

/** The values of a night by key, e.g. to read one in a test. */
export function valuesByKey(values: NightValues): Record<NightField['key'], NightValue> {
  return Object.fromEntries(NIGHT_FIELDS.map((field, i) => [field.key, values[i] ?? null])) as Record<NightField['key'], NightValue>;
}

/** A night as the run reads it. */
export interface NightRow {
  researchId: string;
  date: string;
  studyDay: number;
  phase: StudyPhase;
  recommendedMaterial: string;
  recordedAt: Date;
  /** When its values were last entered: its last revision, else its recording. */
  changedAt: Date;
  revisions: number;
  /**
   * The time zone she logged it in (its 04:00 end is there); null for a night logged before
   * the zone was carried with it, which is judged in her zone at the run.
   */
  timezone: string | null;
  values: NightValues;
}

/** What the rules make of a night: its flags, the hits, whether it is analysed, and the values analysed. */
export interface CheckedNight {
  flags: QaRuleId[];
  hits: QaHit[];
  analysed: boolean;
  /** The values that enter the means: out-of-range and impossible ones are null here. */
  analysedValues: NightValues;
}

function outOfRange(field: NightField, value: NightValue): boolean {
  if (value === null) return false;
  switch (field.kind) {
    case 'integer':
      return typeof value !== 'number' || !Number.isInteger(value) || value < field.min || value > field.max;
    case 'decimal':
    case 'duration':
      return typeof value !== 'number' || !Number.isFinite(value) || value < field.min || value > field.max;
    case 'choice':
      return typeof value !== 'string' || !field.options.includes(value);
    case 'boolean':
      return typeof value !== 'boolean';
  }
}

const DAY_MS = 86_400_000;
/** The latest a night can end, from midnight UTC of its morning: 04:00 at UTC-12. */
const LATEST_NIGHT_END_UTC_MS = 16 * 3_600_000;

const NO_FLAGS: readonly QaRuleId[] = Object.freeze([]);
const NO_HITS: readonly QaHit[] = Object.freeze([]);

function nightHit(
  night: NightRow,
  rule: QaRuleId,
  field: string | null = null,
  value: NightValue = null,
  detail: string | null = null,
): QaHit {
  return {
    rule,
    researchId: night.researchId,
    date: night.date,
    phase: night.phase,
    field,
    value: value === null ? null : String(value),
    detail,
  };
}

const MATERIAL = FIELD_INDEX.sleepwearMaterial;
const TOTAL = FIELD_INDEX.totalSleepMinutes;
const BED = FIELD_INDEX.timeInBedMinutes;
const EFFICIENCY = FIELD_INDEX.sleepEfficiency;
const REM = FIELD_INDEX.remMinutes;
const DEEP = FIELD_INDEX.deepMinutes;

/** `values` with the fields at `indexes` set to null: a copy, unless `values` is one already (not the night's own). */
function withoutValues(values: NightValues, own: NightValues, indexes: readonly number[]): NightValues {
  const copy = values === own ? values.slice() : values;
  for (const i of indexes) copy[i] = null;
  return copy;
}

/** Midnight UTC of a date (YYYY-MM-DD), in ms; remembered, as a cohort's nights share a few hundred dates. */
const midnights = new Map<string, number>();
function midnightUtc(date: string): number {
  let ms = midnights.get(date);
  if (ms === undefined) {
    ms = Date.parse(`${date}T00:00:00Z`);
    if (midnights.size > 10_000) midnights.clear();
    midnights.set(date, ms);
  }
  return ms;
}

const asNumber = (value: NightValue): number | null => (typeof value === 'number' ? value : null);

/**
 * Checks one night against every night rule. Runs once per night of the cohort, so a
 * night that passes allocates nothing but its result: its values are copied only when a
 * rule changes one.
 */
/**
 * The QA rules of one night. `options.timezone` is her zone at the run, for a night that does
 * not carry the zone it was logged in.
 */
export function checkNight(night: NightRow, options: { lateRecordDays: number; timezone: string }): CheckedNight {
  // A night is judged by the clock of where she was when she logged it: a move to another
  // zone later changes neither when that night ended nor how late it was recorded.
  const timezone = night.timezone ?? options.timezone;
  let hits: QaHit[] | null = null;
  let values = night.values;
  let analysed = true;

  for (let i = 0; i < NIGHT_FIELDS.length; i++) {
    const value = values[i] ?? null;
    if (outOfRange(NIGHT_FIELDS[i]!, value)) {
      (hits ??= []).push(nightHit(night, 'out_of_range', NIGHT_FIELDS[i]!.column, value));
      values = withoutValues(values, night.values, [i]);
    }
  }

  const worn = values[MATERIAL];
  if (worn === null && night.phase !== 'completed') {
    (hits ??= []).push(nightHit(night, 'material_not_recorded', 'sleepwear_material', null));
  }
  if (typeof worn === 'string' && worn !== night.recommendedMaterial && night.phase !== 'completed') {
    (hits ??= []).push(
      nightHit(night, 'material_mismatch', 'sleepwear_material', worn, `the phase's material is ${night.recommendedMaterial}`),
    );
    analysed = false;
  }

  // (the checks the sleep log form warns of as she types)
  const durations = {
    totalSleepMinutes: asNumber(values[TOTAL]!),
    timeInBedMinutes: asNumber(values[BED]!),
    remMinutes: asNumber(values[REM]!),
    deepMinutes: asNumber(values[DEEP]!),
  };
  const { totalSleepMinutes: total, timeInBedMinutes: bed, remMinutes: rem, deepMinutes: deep } = durations;
  if (sleepExceedsBed(durations)) {
    (hits ??= []).push(nightHit(night, 'sleep_exceeds_bed', 'total_sleep_minutes', total, `time in bed ${bed} min`));
    values = withoutValues(values, night.values, [TOTAL, BED, EFFICIENCY]);
  }
  if (stagesExceedSleep(durations)) {
    (hits ??= []).push(nightHit(night, 'stages_exceed_sleep', 'rem_minutes', rem, `REM ${rem} + deep ${deep} > total ${total} min`));
    values = withoutValues(values, night.values, [REM, DEEP, TOTAL]);
  }
  const efficiency = asNumber(values[EFFICIENCY]!);
  const totalNow = asNumber(values[TOTAL]!);
  const bedNow = asNumber(values[BED]!);
  if (efficiency !== null && totalNow !== null && bedNow !== null && bedNow > 0) {
    const computed = (100 * totalNow) / bedNow;
    if (Math.abs(efficiency - computed) > EFFICIENCY_TOLERANCE_POINTS) {
      (hits ??= []).push(
        nightHit(night, 'efficiency_inconsistent', 'sleep_efficiency', efficiency, `100 x total / in bed = ${computed.toFixed(1)}`),
      );
    }
  }

  // The morning after the night is the earliest she could record it: calendar days from
  // that morning to the day she recorded it, both in her time zone. Her date is the UTC
  // date or a day either side, so a recording within the limit by the UTC date is within it
  // by hers too; only one at the limit or past it asks for her date (few: Intl costs).
  let lateByDays = Math.floor((night.recordedAt.getTime() - (midnightUtc(night.date) + DAY_MS)) / DAY_MS);
  if (lateByDays >= options.lateRecordDays) lateByDays = daysBetween(addDays(night.date, 1), calendarDateIn(timezone, night.recordedAt));
  if (lateByDays > options.lateRecordDays)
    (hits ??= []).push(nightHit(night, 'recorded_late', null, null, `recorded ${lateByDays} days after the morning`));
  // The product takes a log up to tomorrow's night (docs/study-protocol.md, "Dates"). A
  // night ends at 04:00 her time, between 14 h before and 12 h after 04:00 UTC: a recording
  // from 16:00 UTC on its morning has seen it end, whatever her zone (most do: no lookup).
  const recorded = night.recordedAt.getTime();
  if (recorded < midnightUtc(night.date) + DAY_MS + LATEST_NIGHT_END_UTC_MS) {
    const endsAt = nightEndTime(timezone, night.date);
    if (recorded < endsAt) {
      const hours = Math.ceil((endsAt - recorded) / 3_600_000);
      const changed = night.changedAt.getTime();
      if (changed < endsAt) {
        const lastHours = Math.ceil((endsAt - changed) / 3_600_000);
        const when =
          night.revisions > 0 ? `last changed ${lastHours} h before the night ended` : `recorded ${hours} h before the night ended`;
        (hits ??= []).push(nightHit(night, 'before_night_ended', null, null, when));
        analysed = false;
      } else {
        (hits ??= []).push(nightHit(night, 'recorded_early', null, null, `recorded ${hours} h before the night ended, saved again after`));
      }
    }
  }
  if (night.revisions > 0)
    (hits ??= []).push(nightHit(night, 'revised', null, null, `${night.revisions} revision${night.revisions === 1 ? '' : 's'}`));
  if (night.phase === 'completed') {
    (hits ??= []).push(nightHit(night, 'after_study', null, null, `study day ${night.studyDay}`));
    analysed = false;
  }

  if (hits === null) return { flags: NO_FLAGS as QaRuleId[], hits: NO_HITS as QaHit[], analysed, analysedValues: values };
  return { flags: [...new Set(hits.map((h) => h.rule))], hits, analysed, analysedValues: values };
}
