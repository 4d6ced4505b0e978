import {
  characterCount,
  groupThousands,
  SLEEP_LOG_FIELD_SPECS,
  sleepQualityLabel,
  type SleepLogFieldKey,
  type SleepLogInput,
} from '@sleepweave/contracts';
import { useId, type ReactNode } from 'react';
import { useController, type Control } from 'react-hook-form';
import { Card } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import { controlOf, hintOf, labelOf, noneLabelOf, optionsOf, rangeOf, SLEEP_LOG_DISPLAY } from './sleep-log-display';
import type { FormValues } from './sleep-log-values';

export type SleepLogControl = Control<FormValues, unknown, SleepLogInput>;

/** The value of a list's "not recorded" option ('' in the form). */
const NONE = 'none';

/** A section of the form: a card with its heading. */
export function SleepLogSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card aria-labelledby={id} role="group" className="grid gap-5 p-5 sm:p-7">
      <div>
        <h2 id={id} className="text-xl font-semibold text-night-950">
          {title}
        </h2>
        {description ? <p className="mt-1 text-base text-night-700">{description}</p> : null}
      </div>
      {children}
    </Card>
  );
}

interface FieldProps {
  control: SleepLogControl;
  name: SleepLogFieldKey;
}

/** One field of the list, with the control its kind (and display) calls for. */
export function SleepLogField({ control, name }: FieldProps) {
  switch (controlOf(name)) {
    case 'number':
    case 'duration':
      return <TypedField control={control} name={name} />;
    case 'select':
    case 'rating':
      return <ChoiceField control={control} name={name} />;
    case 'slider':
      return <SleepQualitySlider control={control} name={name} />;
    case 'checkbox':
      return <CheckboxField control={control} name={name} />;
    case 'textarea':
      return <TextField control={control} name={name} />;
  }
}

/** A number or a duration, typed as text ('82', '91.5', '7h32m'). */
function TypedField({ control, name }: FieldProps) {
  const { field } = useController({ control, name });
  const { kind } = SLEEP_LOG_FIELD_SPECS[name];
  return (
    <FormField control={control} name={name} id={`sleep-${name}`} label={labelOf(name)} hint={hintOf(name)}>
      {(props) => (
        <Input
          {...props}
          ref={field.ref}
          name={field.name}
          inputMode={kind === 'duration' ? 'text' : kind === 'decimal' ? 'decimal' : 'numeric'}
          autoComplete="off"
          placeholder={SLEEP_LOG_DISPLAY[name].placeholder}
          value={field.value as string}
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
      )}
    </FormField>
  );
}

/**
 * One of a list (a choice, or a 1-10 rating), with a "not recorded" option.
 * `className` and `describedBy` let a field add a warning of its own.
 */
export function ChoiceField({
  control,
  name,
  className,
  describedBy,
}: FieldProps & { className?: string; describedBy?: string | undefined }) {
  const { field } = useController({ control, name });
  const value = field.value as string;
  const none = noneLabelOf(name);
  return (
    <FormField control={control} name={name} id={`sleep-${name}`} label={labelOf(name)}>
      {(props) => (
        <Select
          {...props}
          aria-describedby={[props['aria-describedby'], describedBy].filter(Boolean).join(' ') || undefined}
          ref={field.ref}
          name={field.name}
          value={value === '' ? NONE : value}
          onValueChange={(next) => field.onChange(next === NONE ? '' : next)}
          options={optionsOf(name, NONE)}
          placeholder={none}
          {...(className ? { className } : {})}
        />
      )}
    </FormField>
  );
}

/** docs/product.md §5: the sleep quality slider, 1-10, labelled Excellent, Good, Fair or Poor. */
function SleepQualitySlider({ control, name }: FieldProps) {
  const {
    field: { ref, value, onChange, onBlur },
  } = useController({ control, name });
  const { min, max } = rangeOf(name) ?? { min: 1, max: 10 };
  const quality = Number(value);
  const id = `sleep-${name}`;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Label htmlFor={id}>{labelOf(name)}</Label>
        <span aria-hidden="true" className="text-lg font-semibold text-night-900">
          {quality}/{max} · {sleepQualityLabel(quality)}
        </span>
      </div>
      <input
        id={id}
        ref={ref}
        name={name}
        type="range"
        min={min}
        max={max}
        step={1}
        value={value as string}
        aria-valuetext={`${quality} of ${max}, ${sleepQualityLabel(quality)}`}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        className="h-11 w-full cursor-pointer accent-night-700"
      />
      <div aria-hidden="true" className="flex justify-between text-sm text-night-600">
        <span>
          {min} · {sleepQualityLabel(min)}
        </span>
        <span>
          {max} · {sleepQualityLabel(max)}
        </span>
      </div>
    </div>
  );
}

/** A yes/no field: a box to tick, saying what ticking it means. */
function CheckboxField({ control, name }: FieldProps) {
  const {
    field: { ref, value, onChange, onBlur },
  } = useController({ control, name });
  return (
    <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-night-400 bg-white px-4 py-2.5 text-base text-night-900">
      <input
        ref={ref}
        type="checkbox"
        name={name}
        checked={value as boolean}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={onBlur}
        className="size-5 shrink-0 accent-night-700"
      />
      {`${labelOf(name)}: ${SLEEP_LOG_DISPLAY[name].statement ?? ''}`}
    </label>
  );
}

/** From this many characters before a text's limit on, the field shows how much room is left. */
const COUNTER_WITHIN = 300;

/**
 * Free text (her comments), up to the list's limit. No `maxlength`: a long paste is not cut
 * silently (docs/decisions.md, Journal limits); near the limit a counter shows, past it the
 * schema's message.
 */
function TextField({ control, name }: FieldProps) {
  const { field } = useController({ control, name });
  const spec = SLEEP_LOG_FIELD_SPECS[name];
  const max = 'max' in spec ? spec.max : undefined;
  const length = characterCount(String(field.value ?? ''));
  const hint =
    max !== undefined && length >= max - COUNTER_WITHIN ? `${groupThousands(length)} of ${groupThousands(max)} characters` : hintOf(name);
  return (
    <FormField control={control} name={name} id={`sleep-${name}`} label={labelOf(name)} hint={hint}>
      {(props) => (
        <Textarea
          {...props}
          ref={field.ref}
          name={field.name}
          rows={4}
          value={field.value as string}
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
      )}
    </FormField>
  );
}
