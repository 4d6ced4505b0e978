import {
  characterCount,
  JOURNAL_FIELD_MAX_LENGTH,
  JOURNAL_FIELDS,
  JournalEntryRequest,
  type JournalEntryInput,
  type JournalField,
} from '@sleepweave/contracts';
import { useEffect, useRef } from 'react';
import { useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { useFieldError } from '../../../components/ui/form-field';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { useDraft } from '../../../lib/use-draft';
import { useLeavePrompt } from '../../../lib/use-leave-prompt';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useWriteJournalEntry } from '../api/write-journal-entry';

type Values = Record<JournalField, string>;
type JournalControl = Control<Values, unknown, JournalEntryInput>;

const empty: Values = { affirmation: '', gratitude: '', forgiveness: '' };

const placeholders: Record<JournalField, string> = {
  affirmation: 'I am…',
  gratitude: 'Today I am grateful for…',
  forgiveness: 'I forgive… / I let go of…',
};

/** From this many characters on, a field shows how much room is left. */
const COUNTER_FROM = JOURNAL_FIELD_MAX_LENGTH - 300;
const formatCount = (n: number) => n.toLocaleString('en-US');

/** The message of an empty entry (the schema's refine on the whole entry). */
const ENTRY_ERROR_ID = 'journal-entry-error';

/**
 * Today's three reflections. On error nothing she wrote is lost; while the entry is being
 * saved the fields are read-only, since the form empties once it is saved.
 */
export function JournalForm() {
  const loggedOut = useLoggedOutRedirect();
  const { control, register, handleSubmit, reset, setFocus, formState, getValues } = useZodForm<Values, JournalEntryInput>(
    JournalEntryRequest,
    {
      defaultValues: empty,
    },
  );
  // What she wrote when her session ended comes back once she is signed in again.
  // (given back as still to save: from defaults of its own, leaving the page lost it unasked)
  /** The form holds an entry given back (its save failed): its key is kept while it is there. */
  const givenBack = useRef(false);
  const keepDraft = useDraft<Values>('journal', (values) => {
    reset(values, { keepDefaultValues: true });
    givenBack.current = true;
  });
  const entryError = useFieldError(control, 'root');
  // a reload or a closed tab would lose what she wrote and has not saved
  useLeavePrompt(formState.isDirty);

  const write = useWriteJournalEntry({
    onSuccess: () => {
      reset(empty);
      keepDraft(null);
      toast({ title: 'Journal Entry Saved', description: 'Your daily reflections have been recorded.' });
    },
    onError: (error, sent) => {
      // Kept as a draft whatever the failure: she may have left the screen while it was on
      // its way, and finds it there again when she comes back (or reloads).
      keepDraft({ ...empty, ...sent });
      givenBack.current = true;
      // docs/product.md §8: toast 'Unauthorized', then sign in after 0.5 s.
      if (isApiRequestError(error) && error.status === 401) {
        loggedOut();
        return;
      }
      toast({
        title: 'Error',
        description: failureMessage(error, 'Failed to save journal entry. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  // She cleared the entry given back: its key goes (the same words later are a new entry,
  // not answered with the one whose save seemed to fail).
  // (the form's values are read, not the watched ones: a draft given back in this commit is
  // not seen by them yet)
  const typed = useWatch({ control });
  const forgetKey = write.forgetKey;
  useEffect(() => {
    const values = getValues();
    if (!givenBack.current || JOURNAL_FIELDS.some(({ name }) => values[name].trim() !== '')) return;
    givenBack.current = false;
    forgetKey();
  }, [typed, getValues, forgetKey]);

  const onSubmit = handleSubmit(
    (data) => {
      // kept while it is on its way: she may leave the screen (or reload) before its answer,
      // which may take long (a service that hangs) and may not come; back, she finds it
      keepDraft({ ...empty, ...data });
      write.mutate(data);
    },
    // An empty entry concerns all three fields: she starts again at the first.
    (errors) => {
      if (errors.root) setFocus(JOURNAL_FIELDS[0].name);
    },
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Today's journal entry" className="grid gap-5">
      {JOURNAL_FIELDS.map(({ name, label }) => (
        <Reflection
          key={name}
          control={control}
          register={register}
          name={name}
          label={label}
          entryError={entryError}
          saving={write.isPending}
        />
      ))}
      {entryError ? (
        <p id={ENTRY_ERROR_ID} role="alert" className="text-base font-medium text-rose-700">
          {entryError}
        </p>
      ) : null}
      <Button type="submit" size="lg" pending={write.isPending} className="w-full sm:w-auto sm:justify-self-start">
        {write.isPending ? 'Saving...' : 'Save Entry'}
      </Button>
    </form>
  );
}

/** One reflection, with the room left once it gets long. */
function Reflection({
  control,
  register,
  name,
  label,
  entryError,
  saving,
}: {
  control: JournalControl;
  register: UseFormRegister<Values>;
  name: JournalField;
  label: string;
  entryError: string | undefined;
  saving: boolean;
}) {
  const error = useFieldError(control, name);
  const length = characterCount(useWatch({ control, name }));
  const hint = length >= COUNTER_FROM ? `${formatCount(length)} of ${formatCount(JOURNAL_FIELD_MAX_LENGTH)} characters` : undefined;
  return (
    <Field id={`journal-${name}`} label={label} error={error} {...(hint ? { hint } : {})}>
      {(props) => (
        <Textarea
          {...props}
          aria-invalid={error !== undefined || entryError !== undefined || undefined}
          aria-describedby={[props['aria-describedby'], entryError ? ENTRY_ERROR_ID : undefined].filter(Boolean).join(' ') || undefined}
          rows={4}
          readOnly={saving}
          placeholder={placeholders[name]}
          {...register(name)}
        />
      )}
    </Field>
  );
}
