import { JOURNAL_FIELD_MAX_LENGTH, JOURNAL_FIELDS, JournalEntryRequest, type JournalField } from '@sleepweave/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { isApiRequestError } from '../../../lib/api-client';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useWriteJournalEntry } from '../api/write-journal-entry';

type Values = Record<JournalField, string>;
type Errors = Partial<Record<JournalField | 'entry', string>>;

const empty: Values = { affirmation: '', gratitude: '', forgiveness: '' };

const placeholders: Record<JournalField, string> = {
  affirmation: 'I am…',
  gratitude: 'Today I am grateful for…',
  forgiveness: 'I forgive… / I let go of…',
};

/** From this many characters on, a field shows how much room is left. */
const COUNTER_FROM = JOURNAL_FIELD_MAX_LENGTH - 300;
const formatCount = (n: number) => n.toLocaleString('en-US');

/** Today's three reflections. On error nothing she wrote is lost. */
export function JournalForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [attempt, setAttempt] = useState(0);
  const loggedOut = useLoggedOutRedirect();

  // After a refused submit, take her to the first field that needs attention.
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const write = useWriteJournalEntry({
    onSuccess: () => {
      setValues(empty);
      setErrors({});
      toast({ title: 'Journal Entry Saved', description: 'Your daily reflections have been recorded.' });
    },
    onError: (error) => {
      // Section 8: toast 'Unauthorized', then sign in after 0.5 s.
      if (isApiRequestError(error) && error.status === 401) {
        loggedOut();
        return;
      }
      toast({ title: 'Error', description: 'Failed to save journal entry. Please try again.', variant: 'destructive' });
    },
  });

  const update = (key: JournalField) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: event.target.value }));
    setErrors((e) => ({ ...e, [key]: undefined, entry: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = JournalEntryRequest.safeParse(values);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = (issue.path[0] as JournalField | undefined) ?? 'entry';
        next[key] ??= issue.message;
      }
      setErrors(next);
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    write.mutate(parsed.data);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Today's journal entry" className="grid gap-5">
      {JOURNAL_FIELDS.map(({ name, label }) => {
        const length = values[name].length;
        const hint = length >= COUNTER_FROM ? `${formatCount(length)} of ${formatCount(JOURNAL_FIELD_MAX_LENGTH)} characters` : undefined;
        const error = errors[name];
        // An empty entry concerns all three fields.
        const invalid = error !== undefined || errors.entry !== undefined;
        return (
          <Field key={name} id={`journal-${name}`} label={label} error={error} {...(hint ? { hint } : {})}>
            {(control) => (
              <Textarea
                {...control}
                aria-invalid={invalid || undefined}
                aria-describedby={
                  [control['aria-describedby'], errors.entry ? 'journal-entry-error' : undefined].filter(Boolean).join(' ') || undefined
                }
                name={name}
                rows={4}
                placeholder={placeholders[name]}
                value={values[name]}
                onChange={update(name)}
              />
            )}
          </Field>
        );
      })}
      {errors.entry ? (
        <p id="journal-entry-error" role="alert" className="text-base font-medium text-rose-700">
          {errors.entry}
        </p>
      ) : null}
      <Button type="submit" size="lg" pending={write.isPending} className="w-full sm:w-auto sm:justify-self-start">
        {write.isPending ? 'Saving...' : 'Save Entry'}
      </Button>
    </form>
  );
}
