import {
  SleepLogInput,
  SLEEP_QUALITY_DEFAULT,
  parseDuration,
  formatDurationInput,
  type SleepLog,
  type SleepwearMaterial,
} from '@sleepweave/contracts';

/**
 * The sleep log form's values as typed (text, so a bad value can be named instead of
 * silently dropped) and their conversion to and from the API payload. Pure.
 */
export type FormValues = {
  date: string;
  /** '' when not specified (a valid choice). */
  sleepwearMaterial: string;
  sleepScore: string;
  totalSleep: string;
  sleepEfficiency: string;
  timeInBed: string;
  restingHr: string;
  restfulness: string;
  rem: string;
  deep: string;
  latency: string;
  timingScore: string;
  avgSpo2: string;
  breathingRegularity: string;
  lowestHr: string;
  avgHrv: string;
  sleepQuality110: number;
  restfulnessSelf: string;
  morningMood: string;
  dreamRecall: boolean;
  fabricComfort: string;
  emotionalCalm: string;
  heatWave: boolean;
  heatWakeups: string;
  comments: string;
};
export type FormField = keyof FormValues;
export type FormErrors = Partial<Record<FormField, string>>;

/** Section 5 defaults: date today, material recommended, quality 7, no heat wave, 0 wake-ups, no dreams. */
export function defaultValues(date: string, recommended: SleepwearMaterial): FormValues {
  return {
    date,
    sleepwearMaterial: recommended,
    sleepScore: '',
    totalSleep: '',
    sleepEfficiency: '',
    timeInBed: '',
    restingHr: '',
    restfulness: '',
    rem: '',
    deep: '',
    latency: '',
    timingScore: '',
    avgSpo2: '',
    breathingRegularity: '',
    lowestHr: '',
    avgHrv: '',
    sleepQuality110: SLEEP_QUALITY_DEFAULT,
    restfulnessSelf: '',
    morningMood: '',
    dreamRecall: false,
    fabricComfort: '',
    emotionalCalm: '',
    heatWave: false,
    heatWakeups: '0',
    comments: '',
  };
}

const text = (value: number | null) => (value === null ? '' : String(value));

/** A stored night, back into the form (edit mode). */
export function valuesFromLog(log: SleepLog): FormValues {
  return {
    date: log.date,
    sleepwearMaterial: log.sleepwearMaterial ?? '',
    sleepScore: text(log.sleepScore),
    totalSleep: formatDurationInput(log.totalSleepMinutes),
    sleepEfficiency: text(log.sleepEfficiency),
    timeInBed: formatDurationInput(log.timeInBedMinutes),
    restingHr: text(log.restingHr),
    restfulness: text(log.restfulness),
    rem: formatDurationInput(log.remMinutes),
    deep: formatDurationInput(log.deepMinutes),
    latency: formatDurationInput(log.latencyMinutes),
    timingScore: text(log.timingScore),
    avgSpo2: text(log.avgSpo2),
    breathingRegularity: log.breathingRegularity ?? '',
    lowestHr: text(log.lowestHr),
    avgHrv: text(log.avgHrv),
    sleepQuality110: log.sleepQuality110 ?? SLEEP_QUALITY_DEFAULT,
    restfulnessSelf: text(log.restfulnessSelf),
    morningMood: log.morningMood ?? '',
    dreamRecall: log.dreamRecall ?? false,
    fabricComfort: log.fabricComfort ?? '',
    emotionalCalm: text(log.emotionalCalm),
    heatWave: log.heatWave ?? false,
    heatWakeups: text(log.heatWakeups),
    comments: log.comments ?? '',
  };
}

/** Number fields: form field -> payload key and the label its messages use. */
const NUMBERS = {
  sleepScore: { key: 'sleepScore', label: 'Sleep score' },
  sleepEfficiency: { key: 'sleepEfficiency', label: 'Sleep efficiency' },
  restingHr: { key: 'restingHr', label: 'Resting heart rate' },
  restfulness: { key: 'restfulness', label: 'Restfulness' },
  timingScore: { key: 'timingScore', label: 'Timing' },
  avgSpo2: { key: 'avgSpo2', label: 'Average SpO2' },
  lowestHr: { key: 'lowestHr', label: 'Lowest heart rate' },
  avgHrv: { key: 'avgHrv', label: 'Average HRV' },
  restfulnessSelf: { key: 'restfulnessSelf', label: 'How rested you feel' },
  emotionalCalm: { key: 'emotionalCalm', label: 'Emotional calm' },
  heatWakeups: { key: 'heatWakeups', label: 'Heat wake-ups' },
} as const satisfies Partial<Record<FormField, { key: keyof SleepLogInput; label: string }>>;

/** Duration fields: typed as 7h32m, sent as minutes. */
const DURATIONS = {
  totalSleep: 'totalSleepMinutes',
  timeInBed: 'timeInBedMinutes',
  rem: 'remMinutes',
  deep: 'deepMinutes',
  latency: 'latencyMinutes',
} as const satisfies Partial<Record<FormField, keyof SleepLogInput>>;

/** Choices: '' is "not recorded". */
const CHOICES = ['sleepwearMaterial', 'breathingRegularity', 'morningMood', 'fabricComfort'] as const;

const NUMBER = /^\d+(?:[.,]\d+)?$/;

/** Which form field a payload key (as the server names it in a 400) belongs to. */
export function formFieldOf(key: string): FormField | undefined {
  for (const [field, spec] of Object.entries(NUMBERS)) if (spec.key === key) return field as FormField;
  for (const [field, payloadKey] of Object.entries(DURATIONS)) if (payloadKey === key) return field as FormField;
  const direct: FormField[] = ['date', 'sleepQuality110', 'dreamRecall', 'heatWave', 'comments', ...CHOICES];
  return direct.find((field) => field === key);
}

/**
 * Validates what she typed with the same schema as the server. Empty values are left out
 * (section 5); a value that cannot be read is an error on its field, never a silent 0.
 */
export function toPayload(values: FormValues): { data: SleepLogInput; errors: null } | { data: null; errors: FormErrors } {
  const errors: FormErrors = {};
  const payload: Record<string, unknown> = { date: values.date };

  for (const [field, { key, label }] of Object.entries(NUMBERS)) {
    const raw = values[field as keyof typeof NUMBERS].trim();
    if (raw === '') continue;
    if (!NUMBER.test(raw)) {
      errors[field as FormField] = `${label} must be a number`;
      continue;
    }
    payload[key] = Number(raw.replace(',', '.'));
  }
  for (const [field, key] of Object.entries(DURATIONS)) {
    const parsed = parseDuration(values[field as keyof typeof DURATIONS]);
    if (!parsed.ok) errors[field as FormField] = parsed.error;
    else if (parsed.minutes !== null) payload[key] = parsed.minutes;
  }
  for (const field of CHOICES) if (values[field] !== '') payload[field] = values[field];
  payload.sleepQuality110 = values.sleepQuality110;
  payload.dreamRecall = values.dreamRecall;
  payload.heatWave = values.heatWave;
  if (values.comments.trim() !== '') payload.comments = values.comments;

  const parsed = SleepLogInput.safeParse(payload);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = formFieldOf(String(issue.path[0] ?? ''));
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { data: null, errors };
  return { data: parsed.data, errors: null };
}
