import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import {
  get,
  useForm,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { isApiRequestError, serverMessage } from './api-client';

/**
 * The web app's one form mechanism: react-hook-form, validated by the zod schema the server
 * uses (from @sleepweave/contracts), with the habits every form of the app shares:
 *
 * - validation runs on submit; a refused submit focuses the first field in error;
 * - changing a field clears its message (and a message about the whole form), and the
 *   form is checked again only on the next submit;
 * - the form may word some messages its own way (`formErrors`), e.g. 'Passwords do not
 *   match' where the schema says "Passwords don't match" (docs/product.md §5).
 */

/** Messages the form shows instead of the schema's, by field ('' or undefined: none). */
export type FormErrorMessages<TValues extends FieldValues> = Partial<Record<FieldPath<TValues>, string | undefined>>;

/**
 * A resolver from a zod schema. An issue without a path (a refine on the whole object)
 * becomes the form's `root` error; `formErrors(values)` replaces the schema's message of
 * the fields it names (and adds one where the schema had none).
 */
export function zodFormResolver<TValues extends FieldValues, TOutput>(
  schema: z.ZodType<TOutput>,
  formErrors?: (values: TValues) => FormErrorMessages<TValues>,
): Resolver<TValues, unknown, TOutput> {
  const resolve = zodResolver(schema as z.ZodType<TOutput, TValues>) as unknown as Resolver<TValues, unknown, TOutput>;
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    const errors: Record<string, unknown> = { ...result.errors };
    if ('' in errors) {
      errors.root = errors[''];
      delete errors[''];
    }
    for (const [name, message] of Object.entries(formErrors?.(values) ?? {})) {
      if (message) errors[name] = { type: 'form', message };
    }
    if (Object.keys(errors).length === 0) return result;
    return { values: {}, errors: errors as FieldErrors<TValues> };
  };
}

/**
 * Clears a field's message (and the form's `root` message) as soon as she changes the
 * field, as every form of the app does: the form is checked again
 * on the next submit, not on every key.
 */
export function useClearErrorsOnChange<TValues extends FieldValues, TOutput>(form: UseFormReturn<TValues, unknown, TOutput>): void {
  const { subscribe, clearErrors } = form;
  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ name, errors }) => {
          if (!name) return; // a reset, not her typing
          const stale = [name, 'root'].filter((key) => get(errors, key) !== undefined);
          if (stale.length > 0) clearErrors(stale as FieldPath<TValues>[]);
        },
      }),
    [subscribe, clearErrors],
  );
}

export type ZodFormOptions<TValues extends FieldValues, TOutput> = Omit<UseFormProps<TValues, unknown, TOutput>, 'resolver'> & {
  /** Messages the form words its own way (see `zodFormResolver`). */
  formErrors?: (values: TValues) => FormErrorMessages<TValues>;
};

/**
 * `useForm` validated by `schema`. `TValues` are the values as she types them (text, ''
 * for "not chosen"), `TOutput` what the schema makes of them: what is sent.
 */
export function useZodForm<TValues extends FieldValues, TOutput = TValues>(
  schema: z.ZodType<TOutput>,
  { formErrors, ...options }: ZodFormOptions<TValues, TOutput>,
): UseFormReturn<TValues, unknown, TOutput> {
  return useValidatedForm({ resolver: zodFormResolver(schema, formErrors), ...options });
}

/** `useForm` with the app's habits (above) and a resolver of its own (the sleep log's). */
export function useValidatedForm<TValues extends FieldValues, TOutput = TValues>(
  options: UseFormProps<TValues, unknown, TOutput> & { resolver: Resolver<TValues, unknown, TOutput> },
): UseFormReturn<TValues, unknown, TOutput> {
  const form = useForm<TValues, unknown, TOutput>({ mode: 'onSubmit', reValidateMode: 'onSubmit', shouldFocusError: true, ...options });
  useClearErrorsOnChange(form);
  return form;
}

/**
 * A 400 answer whose message names a field ("sleepScore: Sleep score must be between 0
 * and 100", the services' validation errors) is shown on that field as well, and focuses
 * it. Returns whether it named one of `fields`.
 */
export function setServerFieldError<TValues extends FieldValues, TOutput>(
  form: UseFormReturn<TValues, unknown, TOutput>,
  error: unknown,
  isField: (name: string) => name is FieldPath<TValues>,
): boolean {
  const message = serverMessage(error);
  if (!isApiRequestError(error) || error.status !== 400 || !message) return false;
  const separator = message.indexOf(': ');
  if (separator < 0) return false;
  const name = message.slice(0, separator);
  if (!isField(name)) return false;
  form.setError(name, { type: 'server', message: message.slice(separator + 2) }, { shouldFocus: true });
  return true;
}
