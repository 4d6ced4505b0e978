import { z } from 'zod';
import { groupThousands } from './common.ts';
import { MAX_DURATION_MINUTES } from './durations.ts';
import { SleepwearMaterial } from './study-protocol.ts';

/**
 * The 24 fields of a night's sleep log (docs/product.md §3), listed once. Everything else derives
 * from this list: the HTTP schemas (`SleepLogFields`, `SleepLog`), the integration events
 * (`study.sleep_log.*`), the study service's read-model columns, the web form, and the
 * research files' columns and codebook.
 *
 * Ranges: docs/product.md §5, and the plausibility limits documented in docs/study-protocol.md.
 */

/** docs/product.md §3 enumeration mood. */
export const Mood = z.enum(['Refreshed', 'Groggy', 'Energetic', 'Tired']);
export type Mood = z.infer<typeof Mood>;
/** docs/product.md §3 enumeration fabric_comfort. */
export const FabricComfort = z.enum(['Very Comfortable', 'Comfortable', 'Neutral', 'Uncomfortable']);
export type FabricComfort = z.infer<typeof FabricComfort>;
/** The ring's breathing-regularity reading, as a label (docs/study-protocol.md). */
export const BreathingRegularity = z.enum(['Optimal', 'Good', 'Fair', 'Pay attention']);
export type BreathingRegularity = z.infer<typeof BreathingRegularity>;

/** docs/product.md §5: the sleep quality slider, 1-10, default 7, with its labels. */
export const SLEEP_QUALITY_DEFAULT = 7;

/** Plausibility limits the server enforces (and the form shows). */
export const SLEEP_LOG_LIMITS = {
  heartRate: { min: 20, max: 250 },
  spo2: { min: 50, max: 100 },
  hrv: { min: 0, max: 300 },
  heatWakeups: { max: 50 },
  comments: { max: 2000 },
} as const;

/** Where a field sits on the form. */
export type SleepLogSection = 'sleepwear' | 'objective' | 'subjective';

/**
 * How a field is typed and stored: a whole number, a decimal, a duration (typed like
 * 7h32m, stored as whole minutes), one of a list, yes/no, or free text.
 */
export type SleepLogFieldKind = 'integer' | 'decimal' | 'duration' | 'choice' | 'boolean' | 'text';

interface FieldBase<K extends SleepLogFieldKind, I extends z.ZodType, S extends z.ZodType, E extends z.ZodType = S> {
  kind: K;
  /** The column of the study service's `sleep_logs` read model. */
  column: string;
  /** How the form and the research codebook name it. */
  label: string;
  /** 'min', 'bpm', 'ms', '%', or null. */
  unit: string | null;
  section: SleepLogSection;
  /** Objective: from the ring; subjective: her own rating. */
  source: 'ring' | 'self' | 'study';
  /** The request schema: absent or null is "not recorded". */
  input: I;
  /** The stored and answered value: null when not recorded. */
  stored: S;
  /**
   * The value on the bus. Looser than `input` on purpose: the service validated it, and a
   * later change of a range must not make old events unreadable.
   */
  event: E;
  min?: number;
  max?: number;
  /** The finest value a decimal takes (0.1: at most one decimal place). */
  step?: number;
  options?: readonly string[];
  /** The form's value for a new night (docs/product.md §5); undefined: empty. */
  formDefault?: number | boolean;
  /** One sentence for the codebook. */
  description: string;
}

const between = (label: string, min: number, max: number, unit: string | null) =>
  `${label} must be between ${min} and ${max}${unit ? ` ${unit}` : ''}`;

const looseNumber = z.number().nullable();

function integer(
  column: string,
  label: string,
  min: number,
  max: number,
  rest: { unit?: string; section: SleepLogSection; source: 'ring' | 'self'; description: string; formDefault?: number },
) {
  const unit = rest.unit ?? null;
  const input = z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, between(label, min, max, unit))
    .max(max, between(label, min, max, unit))
    .nullish();
  return {
    kind: 'integer',
    column,
    label,
    min,
    max,
    input,
    stored: z.number().nullable(),
    event: looseNumber,
    ...rest,
    unit,
  } satisfies FieldBase<'integer', typeof input, z.ZodNullable<z.ZodNumber>>;
}

/**
 * A decimal the ring reports. `step` (docs/product.md §5: efficiency and HRV, 0.1) is the
 * finest value it takes: 91.55 is refused on its field as the spec's input would refuse it.
 */
function decimal(column: string, label: string, min: number, max: number, rest: { unit: string; description: string; step?: 0.1 }) {
  const number = z
    .number({ error: `${label} must be a number` })
    .min(min, between(label, min, max, rest.unit))
    .max(max, between(label, min, max, rest.unit));
  const input = (rest.step === undefined ? number : number.multipleOf(rest.step, `${label} can have at most one decimal place`)).nullish();
  return {
    kind: 'decimal',
    column,
    label,
    min,
    max,
    input,
    stored: z.number().nullable(),
    event: looseNumber,
    section: 'objective',
    source: 'ring',
    ...rest,
  } satisfies FieldBase<'decimal', typeof input, z.ZodNullable<z.ZodNumber>>;
}

function duration(column: string, label: string, description: string) {
  const input = z
    .number({ error: `${label} must be a number of minutes` })
    .int(`${label} must be whole minutes`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_DURATION_MINUTES, `${label} can be at most 24h`)
    .nullish();
  return {
    kind: 'duration',
    column,
    label,
    unit: 'min',
    min: 0,
    max: MAX_DURATION_MINUTES,
    input,
    stored: z.number().nullable(),
    event: looseNumber,
    section: 'objective',
    source: 'ring',
    description,
  } satisfies FieldBase<'duration', typeof input, z.ZodNullable<z.ZodNumber>>;
}

function choice<E extends z.ZodEnum>(
  column: string,
  label: string,
  options: E,
  rest: { section: SleepLogSection; source: 'ring' | 'self' | 'study'; description: string },
) {
  const input = options.nullish();
  return {
    kind: 'choice',
    column,
    label,
    unit: null,
    options: options.options as readonly string[],
    input,
    stored: options.nullable(),
    event: z.string().nullable(),
    ...rest,
  } satisfies FieldBase<'choice', typeof input, z.ZodNullable<E>, z.ZodNullable<z.ZodString>>;
}

function boolean(column: string, label: string, rest: { description: string; formDefault: boolean }) {
  const input = z.boolean({ error: `${label} must be yes or no` }).nullish();
  return {
    kind: 'boolean',
    column,
    label,
    unit: null,
    input,
    stored: z.boolean().nullable(),
    event: z.boolean().nullable(),
    section: 'subjective',
    source: 'self',
    ...rest,
  } satisfies FieldBase<'boolean', typeof input, z.ZodNullable<z.ZodBoolean>>;
}

const { heartRate, spo2, hrv, heatWakeups, comments } = SLEEP_LOG_LIMITS;
const commentsInput = z
  .string({ error: 'Comments must be text' })
  .trim()
  .max(comments.max, `Comments must be at most ${groupThousands(comments.max)} characters`)
  .nullish();

/** Every field of a night except id, userId, date and createdAt, in the order of docs/product.md §3. */
export const SLEEP_LOG_FIELD_SPECS = {
  sleepwearMaterial: choice('sleepwear_material', 'Sleepwear material', SleepwearMaterial, {
    section: 'sleepwear',
    source: 'study',
    description: 'What she wore that night (the phase recommends one; a different one is allowed and flagged).',
  }),
  sleepScore: integer('sleep_score', 'Sleep score', 0, 100, {
    section: 'objective',
    source: 'ring',
    description: "The ring's overall sleep score.",
  }),
  totalSleepMinutes: duration('total_sleep_minutes', 'Total sleep', 'Time asleep (light, deep and REM).'),
  sleepEfficiency: decimal('sleep_efficiency', 'Sleep efficiency', 0, 100, {
    unit: '%',
    step: 0.1,
    description: 'Time asleep as a share of time in bed.',
  }),
  timeInBedMinutes: duration('time_in_bed_minutes', 'Time in bed', 'From lying down to getting up.'),
  restingHr: integer('resting_hr', 'Resting heart rate', heartRate.min, heartRate.max, {
    unit: 'bpm',
    section: 'objective',
    source: 'ring',
    description: 'Lowest five-minute average heart rate during the night, as the ring reports it.',
  }),
  restfulness: integer('restfulness', 'Restfulness', 0, 100, {
    section: 'objective',
    source: 'ring',
    description: "The ring's restfulness score.",
  }),
  remMinutes: duration('rem_minutes', 'REM sleep', 'Time in REM sleep.'),
  deepMinutes: duration('deep_minutes', 'Deep sleep', 'Time in deep (slow-wave) sleep.'),
  latencyMinutes: duration('latency_minutes', 'Time to fall asleep', 'Sleep latency: from lying down to falling asleep.'),
  timingScore: integer('timing_score', 'Timing', 0, 100, {
    section: 'objective',
    source: 'ring',
    description: "The ring's sleep-timing score.",
  }),
  avgSpo2: decimal('avg_spo2', 'Average SpO2', spo2.min, spo2.max, { unit: '%', description: 'Average blood oxygen saturation.' }),
  breathingRegularity: choice('breathing_regularity', 'Breathing regularity', BreathingRegularity, {
    section: 'objective',
    source: 'ring',
    description: "The ring's breathing-regularity reading.",
  }),
  lowestHr: integer('lowest_hr', 'Lowest heart rate', heartRate.min, heartRate.max, {
    unit: 'bpm',
    section: 'objective',
    source: 'ring',
    description: 'Lowest heart rate during the night.',
  }),
  avgHrv: decimal('avg_hrv', 'Average HRV', hrv.min, hrv.max, {
    unit: 'ms',
    step: 0.1,
    description: 'Average heart rate variability (RMSSD) during the night.',
  }),
  sleepQuality110: integer('sleep_quality_1_10', 'Sleep quality', 1, 10, {
    section: 'subjective',
    source: 'self',
    formDefault: SLEEP_QUALITY_DEFAULT,
    description: 'Her rating of the night, 1 (poor) to 10 (excellent).',
  }),
  restfulnessSelf: integer('restfulness_self', 'How rested you feel', 1, 10, {
    section: 'subjective',
    source: 'self',
    description: 'How rested she felt in the morning, 1 to 10.',
  }),
  morningMood: choice('morning_mood', 'Morning mood', Mood, { section: 'subjective', source: 'self', description: 'Her mood on waking.' }),
  dreamRecall: boolean('dream_recall', 'Dream recall', { formDefault: false, description: 'Whether she remembered dreaming.' }),
  fabricComfort: choice('fabric_comfort', 'Fabric comfort', FabricComfort, {
    section: 'subjective',
    source: 'self',
    description: 'How comfortable the sleepwear felt.',
  }),
  emotionalCalm: integer('emotional_calm', 'Emotional calm', 1, 10, {
    section: 'subjective',
    source: 'self',
    description: 'How calm she felt, 1 to 10.',
  }),
  heatWave: boolean('heat_wave', 'Heat wave', { formDefault: false, description: 'Whether she had a hot flash in the night.' }),
  heatWakeups: integer('heat_wakeups', 'Heat wake-ups', 0, heatWakeups.max, {
    section: 'subjective',
    source: 'self',
    formDefault: 0,
    description: 'How many times heat woke her.',
  }),
  comments: {
    kind: 'text',
    column: 'comments',
    label: 'Comments',
    unit: null,
    max: comments.max,
    input: commentsInput,
    stored: z.string().nullable(),
    event: z.string().nullable(),
    section: 'subjective',
    source: 'self',
    description: 'Her notes on hot flashes, emotions and mood (free text).',
  } satisfies FieldBase<'text', typeof commentsInput, z.ZodNullable<z.ZodString>>,
} as const;

export type SleepLogFieldKey = keyof typeof SLEEP_LOG_FIELD_SPECS;
export type SleepLogFieldSpec = (typeof SLEEP_LOG_FIELD_SPECS)[SleepLogFieldKey];

/** The field keys, in the order of docs/product.md §3. */
export const SLEEP_LOG_FIELDS = Object.keys(SLEEP_LOG_FIELD_SPECS) as SleepLogFieldKey[];

/** The fields with their keys, in order, for code that walks them. */
export const SLEEP_LOG_FIELD_LIST: readonly (SleepLogFieldSpec & { key: SleepLogFieldKey })[] = SLEEP_LOG_FIELDS.map((key) => ({
  ...SLEEP_LOG_FIELD_SPECS[key],
  key,
}));

type Specs = typeof SLEEP_LOG_FIELD_SPECS;
/** An object schema with one entry per field, picked from each spec. */
function shapeOf<P extends 'input' | 'stored' | 'event'>(part: P): { [K in SleepLogFieldKey]: Specs[K][P] } {
  const entries = SLEEP_LOG_FIELD_LIST.map((spec) => [spec.key, spec[part]] as const);
  return Object.fromEntries(entries) as unknown as { [K in SleepLogFieldKey]: Specs[K][P] };
}

/** The request shape of every field: all optional (docs/product.md §5). */
export const sleepLogInputShape = shapeOf('input');
/** The stored shape of every field: null when not recorded. */
export const sleepLogStoredShape = shapeOf('stored');
/** The bus shape of every field (see `event` above). */
export const sleepLogEventShape = shapeOf('event');
