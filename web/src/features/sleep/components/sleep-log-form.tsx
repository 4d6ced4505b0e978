import {
  CalendarDate,
  latestLoggableDate,
  nightGuidance,
  savedBeforeItEnded,
  studyStatusOn,
  type NightWhen,
  type SleepLog,
  type SleepLogInput,
  type SleepwearMaterial,
} from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { format, parseISO } from 'date-fns';
import { LoaderCircle, MoonStar, PencilLine } from 'lucide-react';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';
import { setServerFieldError, useValidatedForm } from '../../../lib/form';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useDraft } from '../../../lib/use-draft';
import { useLeavePrompt } from '../../../lib/use-leave-prompt';
import { useCreateSleepLog } from '../api/create-sleep-log';
import { sleepLogQueryKey, sleepLogQueryOptions, useSleepLog } from '../api/get-sleep-log';
import { useUpdateSleepLog } from '../api/update-sleep-log';
import { ObjectiveSection } from './objective-section';
import { nightName, nightRelation } from './nights';
import { PhaseBanner, StudyGuidance } from './phase-banner';
import { defaultValues, isFormField, toPayload, valuesFromLog, type FormValues } from './sleep-log-values';
import { SleepwearSection } from './sleepwear-section';
import { SubjectiveSection } from './subjective-section';

const isDate = (value: string) => CalendarDate.safeParse(value).success;
const longDate = (date: string) => format(parseISO(date), 'EEEE, MMMM d, yyyy');

/**
 * Said of a night that has not ended yet (the form takes up to tomorrow's): the research
 * leaves out a night last saved before it ended, as its ring data and morning ratings cannot
 * be in it (docs/research-export.md, QA); she saw "Sleep Log Saved" and no word of it.
 */
export const NOT_ENDED_YET =
  'This night has not ended yet. Save it again after you wake up (from 4:00 AM): the study counts a night saved once it has ended.';
/** The same of a night not saved yet ("again" was said to a newcomer on her first evening, before any save). */
export const NOT_ENDED_NOT_SAVED =
  'This night has not ended yet. Log it after you wake up (from 4:00 AM): the study counts a night saved once it has ended.';

/**
 * Said of a night she saved before it ended, once it has (docs/study-protocol.md, "Dates"):
 * research leaves it out until it is saved again, and the service stamps that save even when
 * nothing changed. (It said "Change anything and choose Update", and an unchanged save was
 * nothing: the night stayed out, with no word of it.)
 */
export const SAVED_BEFORE_IT_ENDED =
  'You saved it before the night ended, so the study does not count it yet: choose Update Sleep Log to save it again now, even with nothing changed.';

/** Said when what she typed while a night was looked up goes over that night as stored. */
export const TYPED_OVER_STORED =
  'The form now shows it as you saved it, with what you typed meanwhile on top. Check it, then choose Update Sleep Log.';

/** Said when she changed the form while its save was on its way (offline, it waits): those changes are not in it. */
export const CHANGED_WHILE_SAVING =
  'What you changed while this night was being saved is not saved yet. Check it, then choose Update Sleep Log.';

/** Said when a night's lookup failed: the form is in create mode, which may not be so. */
export const lookupFailedText = (date: string) =>
  `We could not check whether you logged ${longDate(date)} already. If you did, saving now says so and shows it.`;

/** What her phase asks her to wear on `date` (today's phase while the date is incomplete). */
const recommendedOn = (studyStartDate: string | null, date: string, today: string): SleepwearMaterial =>
  studyStatusOn(studyStartDate, isDate(date) ? date : today).recommendedMaterial;

/**
 * The form's resolver: what she typed, validated with the server's schema (toPayload),
 * plus the nights she may log: up to tomorrow, not before her study started. A night she
 * logged already (`isStored`: its lookup found it) is hers to update whatever its date: one
 * logged ahead ("tomorrow" in Paris) is after tomorrow once her time zone moved west, and was
 * refused here while the server takes it.
 */
function sleepLogResolver(
  latest: string,
  studyStartDate: string | null,
  isStored: (date: string) => boolean,
): Resolver<FormValues, unknown, SleepLogInput> {
  return (values) => {
    const result = toPayload(values);
    const errors = { ...result.errors };
    if (!errors.date && isDate(values.date) && !isStored(values.date)) {
      // (her dates as the screens write them; the server's 400 says them as ISO dates)
      if (values.date > latest) errors.date = `You can log nights up to tomorrow (${longDate(latest)}).`;
      else if (studyStartDate && values.date < studyStartDate) {
        errors.date = `Your study started on ${longDate(studyStartDate)}; nights before it are not part of the study.`;
      }
    }
    if (result.data && Object.keys(errors).length === 0) return { values: result.data, errors: {} };
    const fieldErrors = Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, { type: 'validate', message }]));
    return { values: {}, errors: fieldErrors as FieldErrors<FormValues> };
  };
}

export interface SleepLogFormProps {
  /** Today in her timezone. */
  today: string;
  /** The night that ended most recently in her timezone ('last night'). */
  lastEnded: string;
  timezone: string;
  studyStartDate: string | null;
  initialDate: string;
  /**
   * The night the log opens on now (the one that ended last), as the clock moves on: left
   * open on the one before with nothing typed, the form moves on to it.
   */
  defaultNight?: string;
  /** The night she chose (a whole date in the field), each time it changes: the screen puts it in the address. */
  onNightChosen?: (date: string) => void;
}

/** An update's draft: the version of the stored night she typed over, and the fields she changed on it. */
type TypedOver = { filledFrom: string; changed: (keyof FormValues)[] };
/** A night kept while her session ended (lib/drafts.ts). */
type Draft = FormValues & { onlyIfNew?: boolean } & Partial<TypedOver>;

/**
 * The nightly sleep log (sections 2, 4, 5): create mode for a night not logged yet, edit
 * mode for one that is; choosing a date looks the night up. The fields are the contracts'
 * field list, in three sections. The night is named above the form ('Night of Sun 22 →
 * Mon 23 Nov'); the banner, guidance and material check are that night's.
 */
export function SleepLogForm({ today, lastEnded, timezone, studyStartDate, initialDate, defaultNight, onNightChosen }: SleepLogFormProps) {
  const queryClient = useQueryClient();
  const loggedOut = useLoggedOutRedirect();
  const latest = latestLoggableDate(timezone, new Date());

  const form = useValidatedForm<FormValues, SleepLogInput>({
    defaultValues: defaultValues(initialDate, recommendedOn(studyStartDate, initialDate, today)),
    resolver: sleepLogResolver(latest, studyStartDate, (date) => Boolean(queryClient.getQueryData(sleepLogQueryKey(date)))),
  });
  const { control, handleSubmit, reset, resetField, getFieldState, getValues, setValue, trigger } = form;
  /** What the form held when she saved (null when no save is on its way). */
  const savedValues = useRef<FormValues | null>(null);
  /** A save is on its way (from the click to its answer). */
  const sending = useRef(false);

  // The night she was saving when her session ended (lib/drafts.ts), back once she is signed
  // in again: its date is looked up first, then what she sent goes over the night as
  // stored (edit mode) or as new (create mode), still to save. Dropped if she chooses
  // another night before that lookup answers.
  // `onlyIfNew`: typed before she chose another night, whose lookup her session's end cut
  // short; it goes over that night only if it has none stored (as choosing it would have
  // shown a stored one, and her typing would not have gone over it).
  // `typedOver`: an update's, the stored night she typed over (its version) and the fields she
  // changed on it.
  const draft = useRef<{ values: FormValues; dateShown: boolean; onlyIfNew: boolean; typedOver: TypedOver | null } | null>(null);
  const [draftArrived, setDraftArrived] = useState(0);
  const keepDraft = useDraft<Draft>('sleep-log', ({ onlyIfNew, filledFrom, changed, ...values }) => {
    if (!isDate(values.date)) return;
    const typedOver = filledFrom && changed ? { filledFrom, changed } : null;
    draft.current = { values, dateShown: false, onlyIfNew: onlyIfNew === true, typedOver };
    setValue('date', values.date);
    setDraftArrived((n) => n + 1);
  });

  const date = useWatch({ control, name: 'date' });
  const lookupDate = isDate(date) ? date : null;
  const lookup = useSleepLog(lookupDate);
  const nightChosen = useEffectEvent((night: string) => onNightChosen?.(night));
  useEffect(() => {
    if (lookupDate) nightChosen(lookupDate);
  }, [lookupDate]);
  // A failed reload keeps the night it has (TanStack Query keeps the data on a refetch error).
  const log: SleepLog | null = lookup.data ?? null;
  const mode = log ? 'edit' : 'create';
  const status = studyStatusOn(studyStartDate, lookupDate ?? today);
  // A night she may not log is refused as she chooses it (the date field says why), and
  // shows no study night (one before her study has none: it showed 'Night 1 of 42'; one after
  // tomorrow showed its phase as if it could be logged), unless she logged it (then it is hers
  // to update): said once its lookup has said which, and the date is checked again.
  const beforeStudy = lookupDate !== null && studyStartDate !== null && lookupDate < studyStartDate;
  const outOfRange = beforeStudy || (lookupDate !== null && lookupDate > latest);
  const settled = lookup.isSuccess || lookup.isError;
  const recommended: SleepwearMaterial = log?.recommendedMaterial ?? status.recommendedMaterial;

  /** Her session ended while she was on the form: `values` are kept, as for a save (lib/drafts.ts). */
  const sessionEnded = (values: Draft | null) => {
    if (values) keepDraft(values);
    loggedOut();
  };

  /** The stored night whose values are in the form (edit mode), by id and version. */
  const shown = useRef<{ id: string; updatedAt: string } | null>(null);
  /**
   * The stored night (its id) whose save was refused as saved elsewhere since: when it comes
   * back from its lookup, the fields she changed stay over it as it now is. Only that night:
   * another one she opens meanwhile shows as stored.
   */
  const keepTyped = useRef<string | null>(null);
  /**
   * The night (its date) a new log of hers was refused for as already logged (409): when the
   * stored one comes back, the fields she filled in stay over it, as after a refused update.
   * (They were dropped: after a lookup that failed, she had typed a whole night into create
   * mode, and the 409 replaced it with the stored one.)
   */
  const keepTypedOn = useRef<string | null>(null);
  /**
   * The stored night a given-back update was typed over (lib/drafts.ts), by id and version:
   * saved against it, a save made elsewhere meanwhile is refused as from any older form.
   * (Against the night as it is when given back, hers went over that save unseen.)
   */
  const savedOver = useRef<{ id: string; updatedAt: string } | null>(null);
  /** The fields she had changed on the stored night when she saved (an update's draft keeps only those). */
  const savedChanged = useRef<(keyof FormValues)[]>([]);

  // Her session ended as she chose another night (its lookup answered 401). The form still
  // holds what it held: in edit mode the night she left, which choosing another drops (it is
  // not hers to carry there); in create mode what she typed, if anything, which goes along.
  const onLookupSessionEnded = useEffectEvent(() => {
    const values = getValues();
    const untouched = { ...defaultValues(values.date, recommended), sleepwearMaterial: values.sleepwearMaterial };
    sessionEnded(shown.current || sameValues(values, untouched) ? null : { ...values, onlyIfNew: true });
  });

  // A failed lookup is logged (docs/product.md §4), and the form stays in the mode it is in;
  // but for her session's end. Below the date it says so, with Try again: in create mode a
  // night she logged looked lost (docs/decisions.md, Sleep log).
  useEffect(() => {
    if (!lookup.isError) return;
    if (isApiRequestError(lookup.error) && lookup.error.status === 401) onLookupSessionEnded();
    else console.error('Sleep log lookup failed', lookup.error);
  }, [lookup.isError, lookup.error]);
  /**
   * What the form held as the night's lookup began (its first answer not in yet): the fields
   * she changes until it answers are hers, and stay over whatever it brings. Kept through a
   * failed lookup, so what she types after it stays over the night a later one finds. (The
   * answer replaced them: on a slow link "Looking up" takes seconds, and a lookup that failed
   * is looked up again on Try again and when the connection comes back.)
   */
  const beforeLookup = useRef<FormValues | null>(null);
  useEffect(() => {
    if (beforeLookup.current?.date === lookupDate) return; // (one she left before its answer is not hers to keep)
    beforeLookup.current = lookupDate && lookup.isPending ? getValues() : null;
  }, [lookupDate, lookup.isPending, getValues]);

  // The lookup (a server answer) decides what the form holds: found -> edit mode, filled
  // in; none -> create mode. Coming from edit mode, create mode starts from the defaults;
  // otherwise what she typed stays. What she typed while it was on its way stays on top.
  useEffect(() => {
    const before = beforeLookup.current;
    const typedMeanwhile: Partial<FormValues> = {};
    if (lookup.isSuccess && before?.date === lookupDate) {
      beforeLookup.current = null;
      const now = getValues();
      for (const name of Object.keys(now) as (keyof FormValues)[]) {
        if (name !== 'date' && now[name] !== before[name]) Object.assign(typedMeanwhile, { [name]: now[name] });
      }
    }
    const keepTypedMeanwhile = () => {
      for (const [name, value] of Object.entries(typedMeanwhile) as [keyof FormValues, FormValues[keyof FormValues]][]) {
        setValue(name, value, { shouldDirty: true });
      }
    };
    const waiting = draft.current;
    if (waiting && lookupDate !== waiting.values.date) {
      if (waiting.dateShown) draft.current = null; // she chose another night meanwhile
    } else if (waiting) {
      waiting.dateShown = true;
    }
    if (draft.current?.onlyIfNew && settled && log && draft.current.values.date === lookupDate) {
      draft.current = null; // that night is stored: it shows as stored (below), as choosing it does
    }
    const typed = draft.current?.values;
    if (typed && settled && typed.date === lookupDate) {
      const over = draft.current?.typedOver ?? null;
      draft.current = null;
      savedValues.current = null;
      shown.current = log ? { id: log.id, updatedAt: log.updatedAt } : null;
      const stored = log ? valuesFromLog(log) : defaultValues(lookupDate, recommendedOn(studyStartDate, lookupDate, today));
      reset(stored);
      if (log && over) {
        // an update: the fields she changed, over the night as it is now; saved against the
        // version she typed over
        savedOver.current = { id: log.id, updatedAt: over.filledFrom };
        const mine = Object.fromEntries(over.changed.map((name) => [name, typed[name]]));
        reset({ ...stored, ...mine }, { keepDefaultValues: true });
      } else {
        reset(typed, { keepDefaultValues: true });
      }
      return;
    }
    if (log) {
      if (shown.current?.id === log.id && shown.current.updatedAt === log.updatedAt) return;
      shown.current = { id: log.id, updatedAt: log.updatedAt };
      // What she changed while her save was on its way stays (the saved night becomes what
      // the form compares with, so those changes show as still to save).
      const sent = savedValues.current;
      savedValues.current = null;
      const changedMeanwhile = sent !== null && sent.date === log.date && !sameValues(getValues(), sent);
      // after a refused save: the night as it now is, with the fields she changed on top
      const merge = keepTyped.current === log.id || keepTypedOn.current === log.date;
      keepTyped.current = null;
      keepTypedOn.current = null;
      reset(valuesFromLog(log), changedMeanwhile ? { keepValues: true } : merge ? { keepDirtyValues: true } : undefined);
      // (said: the form looked saved, and leaving it lost them)
      if (changedMeanwhile) toast({ title: 'Not saved yet', description: CHANGED_WHILE_SAVING });
      if (Object.keys(typedMeanwhile).length > 0) {
        keepTypedMeanwhile();
        toast({ title: 'You logged this night already', description: TYPED_OVER_STORED });
      }
    } else if (settled && shown.current && lookupDate) {
      shown.current = null;
      reset(defaultValues(lookupDate, recommendedOn(studyStartDate, lookupDate, today)));
      keepTypedMeanwhile();
    }
  }, [log, settled, lookup.isSuccess, lookupDate, studyStartDate, today, reset, getValues, setValue, draftArrived]);

  // A night not logged yet: the material is the one her phase recommends for that night
  // until she chooses another (a choice of hers stays when she changes the date).
  useEffect(() => {
    if (log || !settled || !lookupDate || getFieldState('sleepwearMaterial').isDirty) return;
    resetField('sleepwearMaterial', { defaultValue: recommendedOn(studyStartDate, lookupDate, today) });
  }, [log, settled, lookupDate, studyStartDate, today, getFieldState, resetField]);

  // The date checked once the form holds that night (after the effects above: coming from a
  // night she logged, their reset to an empty night cleared the date's error as it was set)
  useEffect(() => {
    if (outOfRange && settled) void trigger('date');
  }, [outOfRange, settled, log, lookupDate, trigger]);

  const onSaveError = (saving: 'create' | 'edit', error: Error, night: string, filledFrom?: string) => {
    // what she sent (she may have moved to another night since, which replaced the form's
    // values); an update's with the version she typed over and the fields she changed
    const over = saving === 'edit' && filledFrom ? { filledFrom, changed: savedChanged.current } : {};
    const sent: Draft = { ...(savedValues.current ?? getValues()), ...over };
    if (isApiRequestError(error) && error.status === 401) {
      sessionEnded(sent);
      savedValues.current = null;
      return;
    }
    if (saving === 'create' && isApiRequestError(error) && error.status === 409) {
      toast({
        title: 'Entry already exists',
        description: 'You already have a sleep log for this date. The form will switch to edit mode.',
      });
      // Load the stored night now (it lands in the lookup, which switches to edit mode), with
      // what she typed on top.
      savedValues.current = null;
      keepTypedOn.current = night;
      const cannotLoad = (cause?: unknown) =>
        isApiRequestError(cause) && cause.status === 401
          ? sessionEnded(getValues())
          : toast({ title: 'Error loading sleep log', description: serverMessage(cause) ?? 'Please try again.', variant: 'destructive' });
      queryClient.fetchQuery(sleepLogQueryOptions(night)).then((found) => {
        if (!found) cannotLoad();
      }, cannotLoad);
      return;
    }
    if (saving === 'edit' && isApiRequestError(error) && error.status === 409) {
      // Saved elsewhere (another tab, another device) since the form was filled: nothing was
      // changed. The night is looked up again and shown as it now is, with the fields she
      // changed on top (the others take the new save's values), so Update saves hers knowingly.
      savedValues.current = null;
      savedOver.current = null; // from now on, against the night as it is shown
      keepTyped.current = shown.current?.id ?? null;
      toast({
        title: 'This night was changed elsewhere',
        description:
          'It was saved again in another tab or on another device since you opened it, and your changes are not saved yet. The form now shows that save with your changes on top: check them, then choose Update Sleep Log.',
        variant: 'destructive',
      });
      void queryClient.invalidateQueries({ queryKey: sleepLogQueryKey(night) });
      return;
    }
    // kept as a draft, as the journal's (lib/drafts.ts): she may have left the screen while
    // it was on its way (it was lost), and finds it there again when she comes back
    keepDraft(sent);
    savedValues.current = null;
    // A 400 names the field ("sleepScore: ..."): show it there as well.
    setServerFieldError(form, error, isFormField);
    toast({
      title: saving === 'create' ? 'Error saving sleep log' : 'Error updating sleep log',
      description: serverMessage(error) ?? failureMessage(error, 'Please try again.'),
      variant: 'destructive',
    });
  };

  const create = useCreateSleepLog({
    // The saved night is now the lookup's answer: the form shows it in edit mode (Update
    // Sleep Log), so saving again updates it (docs/study-protocol.md, "Screens").
    onSuccess: () => {
      keepDraft(null); // a failed save's, now saved
      toast({ title: 'Sleep Log Saved', description: 'Your sleep data has been recorded successfully.' });
    },
    onError: (error, data) => onSaveError('create', error, data.date),
  });
  const update = useUpdateSleepLog({
    onSuccess: () => {
      keepDraft(null); // a failed save's, now saved
      savedOver.current = null;
      toast({ title: 'Sleep Log Updated', description: 'Your sleep data has been updated successfully.' });
    },
    onError: (error, { data }) => onSaveError('edit', error, data.date, data.expectedUpdatedAt),
  });
  const saving = create.isPending || update.isPending;
  // Left open on the night that had just ended, past 04:00 on the next morning (a tab kept
  // overnight): with nothing typed and no save on its way, the form moves on to the night
  // that has ended since, as opening the log then would. Typed into, it stays on its night,
  // whose guidance follows the clock ("Sleepwear for this night").
  const { isDirty } = form.formState;
  // a reload or a closed tab would lose what she changed and has not saved
  useLeavePrompt(isDirty);
  const followed = useRef(defaultNight);
  useEffect(() => {
    const before = followed.current;
    followed.current = defaultNight;
    if (defaultNight === undefined || before === undefined || defaultNight === before) return;
    if (getValues('date') === before && !isDirty && !sending.current) setValue('date', defaultNight);
  }, [defaultNight, isDirty, getValues, setValue]);
  const looking = lookupDate !== null && lookup.isFetching && !lookup.isSuccess;

  const night = lookupDate ?? initialDate;
  const relation = nightRelation(night, lastEnded);
  const when: NightWhen = relation ?? (night < lastEnded ? 'earlier' : 'later');

  const onValid = (data: SleepLogInput) => {
    // one save at a time: a double click sent two (a create's second one answered 409, and
    // "Saved" and "Entry already exists" showed together)
    if (sending.current) return;
    sending.current = true;
    const sent = { onSettled: () => (sending.current = false) };
    savedValues.current = { ...getValues() };
    savedChanged.current = (Object.keys(savedValues.current) as (keyof FormValues)[]).filter((name) => getFieldState(name).isDirty);
    keepTyped.current = null; // a refusal's merge, if its lookup has not come back, is not this save's
    // with the version the form was filled from: a night saved elsewhere since is not replaced unseen
    const filledFrom = savedOver.current?.id === log?.id ? savedOver.current : shown.current;
    if (log)
      update.mutate(
        { id: log.id, data: { ...data, expectedUpdatedAt: filledFrom?.id === log.id ? filledFrom.updatedAt : log.updatedAt } },
        sent,
      );
    else create.mutate(data, sent);
  };

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1" aria-live="polite">
        <h2 className="flex items-center gap-2 text-xl font-semibold text-night-950 sm:text-2xl">
          <MoonStar aria-hidden="true" className="size-6 shrink-0 text-night-600" />
          {nightName(night)}
        </h2>
        {relation ? (
          <span className="rounded-full bg-lavender-100 px-3 py-0.5 text-base font-medium text-night-800">
            {relation === 'last night' ? 'Last night' : 'Tonight'}
          </span>
        ) : null}
      </div>
      {outOfRange && !log ? null : (
        <>
          <PhaseBanner status={status} />
          <StudyGuidance {...nightGuidance(status, when)} />
        </>
      )}

      <form noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} aria-label="Sleep log" className="grid gap-6">
        <div aria-live="polite" className="empty:hidden">
          {looking ? (
            <p className="flex items-center gap-2 text-base text-night-700">
              <LoaderCircle aria-hidden="true" className="size-5 motion-safe:animate-spin" />
              Looking up {longDate(lookupDate)}...
            </p>
          ) : mode === 'edit' ? (
            <p className="flex items-center gap-2 rounded-2xl border border-night-200 bg-white p-4 text-base text-night-900">
              <PencilLine aria-hidden="true" className="size-5 shrink-0 text-night-600" />
              You already logged {longDate(date)}.{' '}
              {night > lastEnded
                ? NOT_ENDED_YET
                : log && savedBeforeItEnded(log, timezone)
                  ? SAVED_BEFORE_IT_ENDED
                  : 'Change anything and choose Update Sleep Log.'}
            </p>
          ) : lookupDate && lookup.isError && !(isApiRequestError(lookup.error) && lookup.error.status === 401) ? (
            <div className="flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-base text-amber-950 sm:flex-row sm:items-center sm:justify-between">
              <p>{lookupFailedText(lookupDate)}</p>
              <Button variant="outline" onClick={() => void lookup.refetch()} pending={lookup.isFetching}>
                Try again
              </Button>
            </div>
          ) : lookupDate && lookupDate > lastEnded && !outOfRange ? (
            <p className="rounded-2xl border border-night-200 bg-white p-4 text-base text-night-900">{NOT_ENDED_NOT_SAVED}</p>
          ) : null}
        </div>

        <SleepwearSection
          control={control}
          studyStartDate={studyStartDate}
          latest={log && log.date > latest ? log.date : latest}
          recommended={(log?.phase ?? status.phase) === 'completed' ? null : recommended}
          when={when}
        />
        <ObjectiveSection control={control} />
        <SubjectiveSection control={control} />

        <div className="flex flex-col gap-3 sm:flex-row">
          <Button type="submit" size="lg" pending={saving} disabled={looking} className="sm:min-w-56">
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

/** The same values in every field (text, choices and yes/no). */
function sameValues(a: FormValues, b: FormValues): boolean {
  return (Object.keys(a) as (keyof FormValues)[]).every((key) => a[key] === b[key]);
}
