import {
  SLEEP_LOG_FIELD_LIST,
  SLEEP_LOG_FIELD_SPECS,
  SleepLogInput,
  formatDurationInput,
  parseDuration,
  type SleepLog,
  type SleepLogFieldKey,
  type SleepLogFieldSpec,
  type SleepwearMaterial,
} from '@sleepweave/contracts';
import { controlOf } from './sleep-log-display';

/**
 * The sleep log form's values as typed, keyed like the API's fields (the contracts' field
 * list), and their conversion to and from the API payload. Pure.
 *
 * Everything is text ('' when not recorded), so a bad value can be named instead of
 * silently dropped: numbers as typed, durations like '7h32m', a choice's option. Only
 * yes/no fields are booleans.
 */
type Specs = typeof SLEEP_LOG_FIELD_SPECS;
type TypedValue<K extends SleepLogFieldKey> = Specs[K]['kind'] extends 'boolean' ? boolean : string;

export type FormValues = { date: string } & { [K in SleepLogFieldKey]: TypedValue<K> };
export type FormField = keyof FormValues;
export type FormErrors = Partial<Record<FormField, string>>;

/** Whether a name (as the server names a field in a 400) is a field of the form. */
export function isFormField(name: string): name is FormField {
  return name === 'date' || Object.hasOwn(SLEEP_LOG_FIELD_SPECS, name);
}

const formDefaultOf = (spec: SleepLogFieldSpec): number | boolean | undefined => ('formDefault' in spec ? spec.formDefault : undefined);

/** A field's value on a new night (docs/product.md §5): its default from the list, else empty. */
function initialValue(spec: SleepLogFieldSpec): string | boolean {
  const value = formDefaultOf(spec);
  if (spec.kind === 'boolean') return value === true;
  return value === undefined ? '' : String(value);
}

/** docs/product.md §5 defaults: date today, material recommended, quality 7, no heat wave, 0 wake-ups, no dreams. */
export function defaultValues(date: string, recommended: SleepwearMaterial): FormValues {
  const values: Record<string, string | boolean> = { date };
  for (const spec of SLEEP_LOG_FIELD_LIST) values[spec.key] = initialValue(spec);
  values.sleepwearMaterial = recommended;
  return values as FormValues;
}

/** A stored night, back into the form (edit mode). */
export function valuesFromLog(log: SleepLog): FormValues {
  const values: Record<string, string | boolean> = { date: log.date };
  for (const spec of SLEEP_LOG_FIELD_LIST) {
    const stored: unknown = log[spec.key];
    switch (spec.kind) {
      case 'duration':
        values[spec.key] = formatDurationInput(stored as number | null);
        break;
      case 'boolean':
      case 'integer':
      case 'decimal':
        // A control that always holds a value (a checkbox, the slider) opens at the default.
        values[spec.key] =
          stored === null && (spec.kind === 'boolean' || controlOf(spec.key) === 'slider') ? initialValue(spec) : typed(stored);
        break;
      case 'choice':
      case 'text':
        values[spec.key] = typed(stored);
        break;
    }
  }
  return values as FormValues;
}

const typed = (value: unknown): string | boolean =>
  value === null || value === undefined ? '' : typeof value === 'boolean' ? value : String(value);

/** A number as she may type it: a minus sign (ASCII or typographic) and a decimal point or comma. */
const NUMBER = /^[-−]?\d+(?:[.,]\d+)?$/;

/**
 * Validates what she typed with the same schema as the server. Empty values are left out
 * (docs/product.md §5); a value that cannot be read is an error on its field, never a silent 0.
 */
export function toPayload(values: FormValues): { data: SleepLogInput; errors: null } | { data: null; errors: FormErrors } {
  const errors: FormErrors = {};
  const payload: Record<string, unknown> = { date: values.date };

  for (const spec of SLEEP_LOG_FIELD_LIST) {
    const value = values[spec.key];
    switch (spec.kind) {
      case 'integer':
      case 'decimal': {
        const raw = String(value).trim();
        if (raw === '') break;
        // (a negative value is a number, out of its range: the schema says which range)
        if (NUMBER.test(raw)) payload[spec.key] = Number(raw.replace(',', '.').replace('−', '-'));
        else errors[spec.key] = `${spec.label} must be a number`;
        break;
      }
      case 'duration': {
        const parsed = parseDuration(String(value));
        if (!parsed.ok) errors[spec.key] = parsed.error;
        else if (parsed.minutes !== null) payload[spec.key] = parsed.minutes;
        break;
      }
      case 'choice':
        if (value !== '') payload[spec.key] = value;
        break;
      case 'boolean':
        payload[spec.key] = value;
        break;
      case 'text':
        if (String(value).trim() !== '') payload[spec.key] = value;
        break;
    }
  }

  const parsed = SleepLogInput.safeParse(payload);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (isFormField(field) && !errors[field]) errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { data: null, errors };
  return { data: parsed.data, errors: null };
}
