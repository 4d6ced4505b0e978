import { CURRENT_PROTOCOL, SLEEP_LOG_FIELD_SPECS, type SleepLogFieldKey, type SleepLogSection } from '@sleepweave/contracts';

/**
 * How the sleep log form shows each field of the contracts' field list
 * (SLEEP_LOG_FIELD_SPECS): only what the list does not say. Labels, units, ranges,
 * options and sections come from the list; the on-screen label is the spec's label with
 * its unit ('Resting heart rate (bpm)'), a 1-10 rating adds its range ('Emotional calm
 * (1-10)').
 *
 * The keys are in the order the form shows them (the list's own order groups the ring's
 * readings differently); the type makes sure every field of the list has its entry.
 */
export interface SleepLogFieldDisplay {
  /** The on-screen label, when the spec's label does not read as a question on screen. */
  label?: string;
  /** Under the field; number fields default to their range ('0 to 100'). */
  hint?: string;
  placeholder?: string;
  /** A whole number shown as a 1-10 list ('rating') or as a slider. Default: typed. */
  widget?: 'rating' | 'slider';
  /** A choice's options in the order shown (default: the spec's). */
  options?: readonly string[];
  /** The option meaning "not recorded" (default 'Not recorded'; ratings 'Not rated'). */
  none?: string;
  /** A yes/no field: what ticking it says ('Dream recall: I remember dreaming'). */
  statement?: string;
}

const ringScore = 'The ring’s score, 0 to 100';

export const SLEEP_LOG_DISPLAY: Record<SleepLogFieldKey, SleepLogFieldDisplay> = {
  // The phases' order: the one she goes through.
  sleepwearMaterial: { options: CURRENT_PROTOCOL.phases.map((phase) => phase.material), none: 'Not specified' },
  sleepScore: { placeholder: 'e.g. 82' },
  totalSleepMinutes: { placeholder: 'e.g. 7h32m' },
  timeInBedMinutes: { placeholder: 'e.g. 8h10m' },
  sleepEfficiency: { placeholder: 'e.g. 91.5' },
  remMinutes: { placeholder: 'e.g. 1h25m' },
  deepMinutes: { placeholder: 'e.g. 1h10m' },
  latencyMinutes: { placeholder: 'e.g. 15m' },
  restingHr: { placeholder: 'e.g. 56' },
  lowestHr: { placeholder: 'e.g. 49' },
  avgHrv: { placeholder: 'e.g. 41.5' },
  restfulness: { hint: ringScore, placeholder: 'e.g. 74' },
  timingScore: { hint: ringScore, placeholder: 'e.g. 88' },
  avgSpo2: { placeholder: 'e.g. 96.5' },
  breathingRegularity: {},
  sleepQuality110: { widget: 'slider' },
  restfulnessSelf: { label: 'How rested do you feel?', widget: 'rating' },
  emotionalCalm: { widget: 'rating' },
  morningMood: {},
  fabricComfort: {},
  dreamRecall: { statement: 'I remember dreaming' },
  heatWave: { statement: 'I had a hot flash in the night' },
  heatWakeups: { hint: 'How often heat woke you', placeholder: '0' },
  comments: { hint: 'Notes on hot flashes, emotions and mood.' },
};

/** The fields of one section of the form, in the order shown. */
export function fieldsOf(section: SleepLogSection): SleepLogFieldKey[] {
  return (Object.keys(SLEEP_LOG_DISPLAY) as SleepLogFieldKey[]).filter((key) => SLEEP_LOG_FIELD_SPECS[key].section === section);
}

/** What the form shows for a field: the kind of control and its words. */
export type FieldControl = 'number' | 'duration' | 'select' | 'rating' | 'slider' | 'checkbox' | 'textarea';

export function controlOf(key: SleepLogFieldKey): FieldControl {
  const { kind } = SLEEP_LOG_FIELD_SPECS[key];
  const { widget } = SLEEP_LOG_DISPLAY[key];
  switch (kind) {
    case 'integer':
      return widget ?? 'number';
    case 'decimal':
      return 'number';
    case 'duration':
      return 'duration';
    case 'choice':
      return 'select';
    case 'boolean':
      return 'checkbox';
    case 'text':
      return 'textarea';
  }
}

/** A field's range, when it has one. */
export function rangeOf(key: SleepLogFieldKey): { min: number; max: number } | null {
  const spec = SLEEP_LOG_FIELD_SPECS[key];
  return 'min' in spec && 'max' in spec && spec.min !== undefined && spec.max !== undefined ? { min: spec.min, max: spec.max } : null;
}

/** The on-screen label: 'Sleep efficiency (%)', 'Emotional calm (1-10)', 'Total sleep'. */
export function labelOf(key: SleepLogFieldKey): string {
  const spec = SLEEP_LOG_FIELD_SPECS[key];
  const label = SLEEP_LOG_DISPLAY[key].label ?? spec.label;
  const control = controlOf(key);
  const range = rangeOf(key);
  if (control === 'rating' && range) return `${label} (${range.min}-${range.max})`;
  // A duration is typed as hours and minutes, whatever unit it is stored in.
  if (control === 'number' && spec.unit) return `${label} (${spec.unit})`;
  return label;
}

/** Under a duration, how to write it (parseDuration also takes 7:32). */
export const DURATION_HINT = 'Hours and minutes, like 7h32m or 15m';

/** The hint under a field: its own, a duration's format, or a typed number's range ('20 to 250'; '0 to 100, one decimal' with a step of 0.1). */
export function hintOf(key: SleepLogFieldKey): string | undefined {
  const own = SLEEP_LOG_DISPLAY[key].hint;
  if (own !== undefined) return own;
  // the placeholder's example goes once she types: the format stays written under the field
  if (controlOf(key) === 'duration') return DURATION_HINT;
  const range = rangeOf(key);
  if (controlOf(key) !== 'number' || !range) return undefined;
  const spec = SLEEP_LOG_FIELD_SPECS[key];
  return 'step' in spec && spec.step === 0.1 ? `${range.min} to ${range.max}, one decimal` : `${range.min} to ${range.max}`;
}

/** The options of a list, with its "not recorded" one last. */
export function optionsOf(key: SleepLogFieldKey, none: string): { value: string; label: string }[] {
  const spec = SLEEP_LOG_FIELD_SPECS[key];
  const range = rangeOf(key);
  const values =
    controlOf(key) === 'rating' && range
      ? Array.from({ length: range.max - range.min + 1 }, (_, i) => String(range.min + i))
      : (SLEEP_LOG_DISPLAY[key].options ?? ('options' in spec ? spec.options : []));
  return [...values.map((value) => ({ value, label: value })), { value: none, label: noneLabelOf(key) }];
}

/** The words of the "not recorded" option. */
export function noneLabelOf(key: SleepLogFieldKey): string {
  return SLEEP_LOG_DISPLAY[key].none ?? (controlOf(key) === 'rating' ? 'Not rated' : 'Not recorded');
}
