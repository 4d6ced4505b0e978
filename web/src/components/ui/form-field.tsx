import type { ReactNode } from 'react';
import { get, useFormState, type Control, type FieldError, type FieldPath, type FieldValues } from 'react-hook-form';
import { Field, type FieldControlProps } from './field';

/**
 * The message of one field of a react-hook-form form ('root': the form's own), or
 * undefined. Subscribes to that field only: typing elsewhere does not re-render it.
 */
export function useFieldError<TValues extends FieldValues, TOutput>(
  control: Control<TValues, unknown, TOutput>,
  name: FieldPath<TValues> | 'root',
): string | undefined {
  const { errors } = useFormState({ control, name: name as FieldPath<TValues>, exact: true });
  return (get(errors, name) as FieldError | undefined)?.message;
}

/**
 * A labelled control of a react-hook-form form (see `Field`), showing the field's error
 * under it and linking it through aria-invalid and aria-describedby.
 */
export function FormField<TValues extends FieldValues, TOutput>({
  control,
  name,
  id,
  label,
  hint,
  children,
}: {
  control: Control<TValues, unknown, TOutput>;
  name: FieldPath<TValues>;
  id: string;
  label: string;
  hint?: string | undefined;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const error = useFieldError(control, name);
  return (
    <Field id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      {children}
    </Field>
  );
}
