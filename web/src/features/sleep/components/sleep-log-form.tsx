import {
  BreathingRegularity,
  CalendarDate,
  CURRENT_PROTOCOL,
  FabricComfort,
  Mood,
  SLEEP_LOG_LIMITS,
  latestLoggableDate,
  materialMismatchMessage,
  sleepQualityLabel,
  studyStatusOn,
  type SleepLog,
  type SleepwearMaterial,
} from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { format, parseISO } from 'date-fns';
import { CircleAlert, LoaderCircle, PencilLine } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, type FieldControlProps } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { isApiRequestError, serverMessage } from '../../../lib/api-client';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { cn } from '../../../lib/utils';
import { useCreateSleepLog } from '../api/create-sleep-log';
import { sleepLogQueryOptions, useSleepLog } from '../api/get-sleep-log';
import { useUpdateSleepLog } from '../api/update-sleep-log';
import { PhaseBanner, StudyGuidance } from './phase-banner';
import { defaultValues, formFieldOf, toPayload, valuesFromLog, type FormErrors, type FormField, type FormValues } from './sleep-log-values';

const NONE = 'none';
const isDate = (value: string) => CalendarDate.safeParse(value).success;
const longDate = (date: string) => format(parseISO(date), 'EEEE, MMMM d, yyyy');

const materialOptions = [
  ...CURRENT_PROTOCOL.phases.map((phase) => ({ value: phase.material, label: phase.material })),
  { value: NONE, label: 'Not specified' },
];
const choice = (values: readonly string[], none: string) => [
  ...values.map((value) => ({ value, label: value })),
  { value: NONE, label: none },
];
const ratingOptions = [
  ...Array.from({ length: 10 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })),
  { value: NONE, label: 'Not rated' },
];

export interface SleepLogFormProps {
  /** Today in her timezone. */
  today: string;
  timezone: string;
  studyStartDate: string | null;
  initialDate: string;
}

/** A section of the form: a card with its heading. */
function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
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

/**
 * The nightly sleep log (sections 2, 4, 5): create mode for a night not logged yet, edit
 * mode for one that is; choosing a date looks the night up.
 */
export function SleepLogForm({ today, timezone, studyStartDate, initialDate }: SleepLogFormProps) {
  const queryClient = useQueryClient();
  const loggedOut = useLoggedOutRedirect();
  const formRef = useRef<HTMLFormElement>(null);
  const latest = latestLoggableDate(timezone, new Date());
  const recommendedFor = (date: string) => studyStatusOn(studyStartDate, isDate(date) ? date : today).recommendedMaterial;

  const [values, setValues] = useState<FormValues>(() => defaultValues(initialDate, recommendedFor(initialDate)));
  const [errors, setErrors] = useState<FormErrors>({});
  const [attempt, setAttempt] = useState(0);
  /** The stored night whose values are in the form (edit mode), by id and version. */
  const [prefilled, setPrefilled] = useState<{ id: string; updatedAt: string } | null>(null);

  const lookupDate = isDate(values.date) ? values.date : null;
  const lookup = useSleepLog(lookupDate);
  // A failed reload keeps the night it has (TanStack Query keeps the data on a refetch error).
  const log: SleepLog | null = lookup.data ?? null;
  const mode = log ? 'edit' : 'create';
  const status = studyStatusOn(studyStartDate, lookupDate ?? today);
  const recommended: SleepwearMaterial = log?.recommendedMaterial ?? status.recommendedMaterial;

  // The lookup decides the mode: found -> edit, prefilled; none -> create. A failed lookup is
  // only logged (section 4). Coming from edit mode, create mode starts from the defaults;
  // otherwise what she typed stays.
  useEffect(() => {
    if (lookup.isError) console.error('Sleep log lookup failed', lookup.error);
    if (log) {
      if (prefilled?.id !== log.id || prefilled.updatedAt !== log.updatedAt) {
        setValues(valuesFromLog(log));
        setPrefilled({ id: log.id, updatedAt: log.updatedAt });
        setErrors({});
      }
    } else if ((lookup.isSuccess || lookup.isError) && prefilled && lookupDate) {
      setValues(defaultValues(lookupDate, recommendedFor(lookupDate)));
      setPrefilled(null);
      setErrors({});
    }
  }, [log, lookup.isSuccess, lookup.isError]);

  // After a refused save, take her to the first field that needs attention.
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const onSaveError = (saving: 'create' | 'edit', date: string) => (error: Error) => {
    if (isApiRequestError(error) && error.status === 401) {
      loggedOut();
      return;
    }
    if (saving === 'create' && isApiRequestError(error) && error.status === 409) {
      toast({
        title: 'Entry already exists',
        description: 'You already have a sleep log for this date. The form will switch to edit mode.',
      });
      // Load the stored night now (it lands in the lookup, which switches to edit mode).
      const cannotLoad = (cause?: unknown) =>
        toast({ title: 'Error loading sleep log', description: serverMessage(cause) ?? 'Please try again.', variant: 'destructive' });
      queryClient.fetchQuery(sleepLogQueryOptions(date)).then((found) => {
        if (!found) cannotLoad();
      }, cannotLoad);
      return;
    }
    const message = serverMessage(error);
    // A 400 names the field ("sleepScore: ..."): show it there as well.
    if (isApiRequestError(error) && error.status === 400 && message?.includes(': ')) {
      const [key, ...rest] = message.split(': ');
      const field = formFieldOf(key ?? '');
      if (field) {
        setErrors({ [field]: rest.join(': ') });
        setAttempt((n) => n + 1);
      }
    }
    toast({
      title: saving === 'create' ? 'Error saving sleep log' : 'Error updating sleep log',
      description: message ?? 'Please try again.',
      variant: 'destructive',
    });
  };

  const create = useCreateSleepLog({
    onSuccess: () => {
      toast({ title: 'Sleep Log Saved', description: 'Your sleep data has been recorded successfully.' });
      // Section 4: saving in create mode resets the form to its defaults (today, a new night).
      setValues(defaultValues(today, recommendedFor(today)));
      setPrefilled(null);
      setErrors({});
    },
    onError: (error) => onSaveError('create', values.date)(error),
  });
  const update = useUpdateSleepLog({
    onSuccess: () => {
      toast({ title: 'Sleep Log Updated', description: 'Your sleep data has been updated successfully.' });
    },
    onError: (error) => onSaveError('edit', values.date)(error),
  });
  const saving = create.isPending || update.isPending;

  const set = <K extends FormField>(key: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };
  const onText = (key: FormField) => (event: { target: { value: string } }) => set(key, event.target.value);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = toPayload(values);
    const found: FormErrors = result.errors ?? {};
    if (!found.date && isDate(values.date)) {
      if (values.date > latest) found.date = `You can log nights up to tomorrow (${latest}).`;
      else if (studyStartDate && values.date < studyStartDate) {
        found.date = `Your study started on ${studyStartDate}; nights before it are not part of the study.`;
      }
    }
    if (!result.data || Object.keys(found).length > 0) {
      setErrors(found);
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    if (log) update.mutate({ id: log.id, data: result.data });
    else create.mutate(result.data);
  };

  const mismatch = values.sleepwearMaterial !== '' && values.sleepwearMaterial !== recommended;
  const looking = lookupDate !== null && lookup.isFetching && !lookup.isSuccess;

  const text = (
    key: FormField,
    label: string,
    options: { hint?: string; placeholder?: string; inputMode?: 'numeric' | 'decimal' | 'text' } = {},
  ) => (
    <Field id={`sleep-${key}`} label={label} error={errors[key]} {...(options.hint ? { hint: options.hint } : {})}>
      {(control) => (
        <Input
          {...control}
          name={key}
          inputMode={options.inputMode ?? 'numeric'}
          autoComplete="off"
          placeholder={options.placeholder}
          value={values[key] as string}
          onChange={onText(key)}
        />
      )}
    </Field>
  );
  const duration = (key: FormField, label: string, placeholder: string) => text(key, label, { placeholder, inputMode: 'text' });
  const select = (
    key: FormField,
    label: string,
    options: { value: string; label: string }[],
    placeholder: string,
    extra?: (control: FieldControlProps) => { className?: string; 'aria-describedby'?: string | undefined },
  ) => (
    <Field id={`sleep-${key}`} label={label} error={errors[key]}>
      {(control) => (
        <Select
          {...control}
          name={key}
          value={(values[key] as string) === '' ? NONE : (values[key] as string)}
          onValueChange={(value) => set(key, value === NONE ? '' : value)}
          options={options}
          placeholder={placeholder}
          {...(extra?.(control) ?? {})}
        />
      )}
    </Field>
  );

  const quality = values.sleepQuality110;
  const { heartRate, spo2, hrv } = SLEEP_LOG_LIMITS;

  return (
    <div className="grid gap-6">
      <PhaseBanner status={status} />
      <StudyGuidance status={status} />

      <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Sleep log" className="grid gap-6">
        <div aria-live="polite" className="empty:hidden">
          {looking ? (
            <p className="flex items-center gap-2 text-base text-night-700">
              <LoaderCircle aria-hidden="true" className="size-5 motion-safe:animate-spin" />
              Looking up {longDate(lookupDate)}...
            </p>
          ) : mode === 'edit' ? (
            <p className="flex items-center gap-2 rounded-2xl border border-night-200 bg-white p-4 text-base text-night-900">
              <PencilLine aria-hidden="true" className="size-5 shrink-0 text-night-600" />
              You already logged {longDate(values.date)}. Change anything and choose Update Sleep Log.
            </p>
          ) : null}
        </div>

        <Section title="Sleepwear Information">
          <div className="grid items-start gap-5 sm:grid-cols-2">
            <Field id="sleep-date" label="Date" error={errors.date} hint="The night you are logging.">
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  name="date"
                  required
                  min={studyStartDate ?? undefined}
                  max={latest}
                  value={values.date}
                  onChange={onText('date')}
                />
              )}
            </Field>
            <div className="grid content-start gap-2">
              {select('sleepwearMaterial', 'Sleepwear material', materialOptions, 'Not specified', (control) => ({
                className: mismatch ? 'border-2 border-rose-600 bg-rose-50/40' : '',
                'aria-describedby':
                  [control['aria-describedby'], mismatch ? 'sleep-material-warning' : undefined].filter(Boolean).join(' ') || undefined,
              }))}
              {mismatch ? (
                <p id="sleep-material-warning" role="status" className="flex items-start gap-2 text-base font-medium text-rose-700">
                  <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
                  {materialMismatchMessage(recommended)}
                </p>
              ) : null}
            </div>
          </div>
        </Section>

        <Section
          title="Objective Sleep Data"
          description="From your sleep ring. Type durations as hours and minutes, like 7h32m, 15m or 1h25m. Leave out anything it did not record."
        >
          <div className="grid items-start gap-5 sm:grid-cols-2">
            {text('sleepScore', 'Sleep score', { hint: '0 to 100', placeholder: 'e.g. 82' })}
            {duration('totalSleep', 'Total sleep', 'e.g. 7h32m')}
            {duration('timeInBed', 'Time in bed', 'e.g. 8h10m')}
            {text('sleepEfficiency', 'Sleep efficiency (%)', { hint: '0 to 100', placeholder: 'e.g. 91.5', inputMode: 'decimal' })}
            {duration('rem', 'REM sleep', 'e.g. 1h25m')}
            {duration('deep', 'Deep sleep', 'e.g. 1h10m')}
            {duration('latency', 'Time to fall asleep', 'e.g. 15m')}
            {text('restingHr', 'Resting heart rate (bpm)', { hint: `${heartRate.min} to ${heartRate.max}`, placeholder: 'e.g. 56' })}
            {text('lowestHr', 'Lowest heart rate (bpm)', { hint: `${heartRate.min} to ${heartRate.max}`, placeholder: 'e.g. 49' })}
            {text('avgHrv', 'Average HRV (ms)', { hint: `${hrv.min} to ${hrv.max}`, placeholder: 'e.g. 41.5', inputMode: 'decimal' })}
            {text('restfulness', 'Restfulness', { hint: 'The ring’s score, 0 to 100', placeholder: 'e.g. 74' })}
            {text('timingScore', 'Timing', { hint: 'The ring’s score, 0 to 100', placeholder: 'e.g. 88' })}
            {text('avgSpo2', 'Average SpO2 (%)', { hint: `${spo2.min} to ${spo2.max}`, placeholder: 'e.g. 96.5', inputMode: 'decimal' })}
            {select('breathingRegularity', 'Breathing regularity', choice(BreathingRegularity.options, 'Not recorded'), 'Not recorded')}
          </div>
        </Section>

        <Section title="Subjective Experience" description="How the night felt to you.">
          <div className="grid gap-2">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <Label htmlFor="sleep-sleepQuality110">Sleep quality</Label>
              <span aria-hidden="true" className="text-lg font-semibold text-night-900">
                {quality}/10 · {sleepQualityLabel(quality)}
              </span>
            </div>
            <input
              id="sleep-sleepQuality110"
              name="sleepQuality110"
              type="range"
              min={1}
              max={10}
              step={1}
              value={quality}
              aria-valuetext={`${quality} of 10, ${sleepQualityLabel(quality)}`}
              onChange={(event) => set('sleepQuality110', Number(event.target.value))}
              className="h-2 w-full cursor-pointer accent-night-700"
            />
            <div aria-hidden="true" className="flex justify-between text-sm text-night-600">
              <span>1 · Poor</span>
              <span>10 · Excellent</span>
            </div>
          </div>
          <div className="grid items-start gap-5 sm:grid-cols-2">
            {select('restfulnessSelf', 'How rested do you feel? (1-10)', ratingOptions, 'Not rated')}
            {select('emotionalCalm', 'Emotional calm (1-10)', ratingOptions, 'Not rated')}
            {select('morningMood', 'Morning mood', choice(Mood.options, 'Not recorded'), 'Not recorded')}
            {select('fabricComfort', 'Fabric comfort', choice(FabricComfort.options, 'Not recorded'), 'Not recorded')}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-night-200 bg-white px-4 py-2.5 text-base text-night-900">
              <input
                type="checkbox"
                name="dreamRecall"
                checked={values.dreamRecall}
                onChange={(event) => set('dreamRecall', event.target.checked)}
                className="size-5 shrink-0 accent-night-700"
              />
              Dream recall: I remember dreaming
            </label>
            <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-night-200 bg-white px-4 py-2.5 text-base text-night-900">
              <input
                type="checkbox"
                name="heatWave"
                checked={values.heatWave}
                onChange={(event) => set('heatWave', event.target.checked)}
                className="size-5 shrink-0 accent-night-700"
              />
              Heat wave: I had a hot flash in the night
            </label>
          </div>
          <div className="grid items-start gap-5 sm:grid-cols-2">
            {text('heatWakeups', 'Heat wake-ups', { hint: 'How often heat woke you', placeholder: '0' })}
          </div>
          <Field id="sleep-comments" label="Comments" error={errors.comments} hint="Notes on hot flashes, emotions and mood.">
            {(control) => (
              <Textarea
                {...control}
                name="comments"
                rows={4}
                maxLength={SLEEP_LOG_LIMITS.comments.max}
                value={values.comments}
                onChange={onText('comments')}
              />
            )}
          </Field>
        </Section>

        <div className="flex flex-col gap-3 sm:flex-row">
          <Button type="submit" size="lg" pending={saving} disabled={looking} className={cn('sm:min-w-56')}>
            {mode === 'edit' ? (update.isPending ? 'Updating...' : 'Update Sleep Log') : create.isPending ? 'Saving...' : 'Save Sleep Log'}
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={paths.sleep.dashboard}>View Dashboard</Link>
          </Button>
        </div>
      </form>
    </div>
  );
}
