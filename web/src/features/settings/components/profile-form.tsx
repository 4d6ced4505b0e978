import { HORMONAL_STAGE_OPTIONS, TIMEZONE_OPTIONS, UpdateProfileRequest, type User } from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError, isNetworkError, isUnconfirmed, serverMessage } from '../../../lib/api-client';
import { useZodForm, type FormErrorMessages } from '../../../lib/form';
import { userQueryOptions } from '../../../lib/auth';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useOneAtATime } from '../../../lib/one-at-a-time';
import { useDraft } from '../../../lib/use-draft';
import { useLeavePrompt } from '../../../lib/use-leave-prompt';
import { useUpdateProfile } from '../api/update-profile';

type Values = { firstName: string; lastName: string; timezone: string; hormonalStage: string };

const hormonalStageOptions = HORMONAL_STAGE_OPTIONS.map((stage) => ({ value: stage, label: stage }));

const valuesOf = (user: User): Values => ({
  firstName: user.firstName,
  lastName: user.lastName,
  timezone: user.timezone,
  hormonalStage: user.hormonalStage ?? '',
});

/** The profile the form was filled from, as the server compares it (UpdateProfileRequest.expected). */
const filledFrom = (values: Partial<Values> | undefined): UpdateProfileRequest['expected'] =>
  values === undefined
    ? undefined
    : {
        firstName: values.firstName ?? '',
        lastName: values.lastName ?? '',
        timezone: values.timezone ?? '',
        hormonalStage: values.hormonalStage ? values.hormonalStage : null,
      };

/** A profile from before the stage was asked has none: the form asks for one. */
const formWords = (values: Values): FormErrorMessages<Values> => ({
  hormonalStage: values.hormonalStage === '' ? 'Please choose your hormonal stage' : undefined,
});

/** Her profile: names, timezone, hormonal stage; the e-mail is shown but not changed here. */
export function ProfileForm({ user }: { user: User }) {
  const { control, register, handleSubmit, reset, formState } = useZodForm<Values, UpdateProfileRequest>(UpdateProfileRequest, {
    defaultValues: valuesOf(user),
    formErrors: formWords,
  });
  const loggedOut = useLoggedOutRedirect();
  // What she was saving when her session ended comes back once she is signed in again, as
  // changes still to save over her profile, with the profile she typed over: saved against
  // that, what another device changed meanwhile in a field she left alone stays (her draft
  // holds every field, so against her profile as it now is the old values read as hers).
  const savedOver = useRef<UpdateProfileRequest['expected'] | null>(null);
  const keepDraft = useDraft<Values & { filledFrom?: UpdateProfileRequest['expected'] }>('profile', ({ filledFrom: base, ...values }) => {
    savedOver.current = base ?? null;
    reset(values, { keepDefaultValues: true });
  });

  // a reload or a closed tab would lose the changes she has not saved
  useLeavePrompt(formState.isDirty);
  // a double click saved twice (two toasts)
  const oneAtATime = useOneAtATime();
  const queryClient = useQueryClient();
  const save = useUpdateProfile({
    onSuccess: (updated) => {
      savedOver.current = null;
      reset(valuesOf(updated));
      toast({ title: 'Settings saved', description: 'Your profile has been updated.' });
    },
    onError: (error, sent) => {
      if (isApiRequestError(error) && error.status === 401) {
        const { expected, ...typed } = sent;
        keepDraft({ ...typed, hormonalStage: typed.hormonalStage ?? '', filledFrom: expected });
        loggedOut();
        return;
      }
      if (isApiRequestError(error) && error.status === 409) {
        savedOver.current = null; // from now on, against her profile as it is shown
        // a field she changed was changed elsewhere meanwhile: nothing was saved. Her profile
        // as it now is, with her changes on top, so saving again keeps hers knowingly.
        toast({
          title: 'Your profile was changed elsewhere',
          description: serverMessage(error) ?? 'Please check it and save again.',
          variant: 'destructive',
        });
        void queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }).then(
          (fresh) => {
            if (fresh) reset(valuesOf(fresh), { keepDirtyValues: true });
          },
          () => undefined,
        );
        return;
      }
      // (not "Could not save" over "… may have been saved")
      const unconfirmed = isUnconfirmed(error);
      toast({
        title: unconfirmed ? 'Not confirmed' : 'Could not save your settings',
        description: unconfirmed
          ? failureMessage(error, 'Please try again.')
          : isNetworkError(error)
            ? 'Network error. Please try again.'
            : (serverMessage(error) ?? 'Please try again.'),
        variant: 'destructive',
      });
    },
  });

  return (
    <form
      noValidate
      onSubmit={(event) =>
        void handleSubmit((data) =>
          oneAtATime(() => save.mutateAsync({ ...data, expected: savedOver.current ?? filledFrom(formState.defaultValues) })),
        )(event)
      }
      aria-label="Profile"
      className="grid gap-5"
    >
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <FormField control={control} name="firstName" id="settings-first-name" label="First name">
          {(props) => <Input {...props} autoComplete="given-name" required {...register('firstName')} />}
        </FormField>
        <FormField control={control} name="lastName" id="settings-last-name" label="Last name">
          {(props) => <Input {...props} autoComplete="family-name" required {...register('lastName')} />}
        </FormField>
      </div>
      <Field id="settings-email" label="Email" hint="Your email address is how you sign in; it can't be changed here.">
        {(props) => <Input {...props} type="email" name="email" value={user.email} readOnly className="bg-night-50 text-night-800" />}
      </Field>
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <FormField control={control} name="timezone" id="settings-timezone" label="Timezone">
          {(props) => (
            <Controller
              control={control}
              name="timezone"
              render={({ field }) => (
                <Select
                  {...props}
                  ref={field.ref}
                  name={field.name}
                  value={field.value}
                  onValueChange={field.onChange}
                  options={TIMEZONE_OPTIONS}
                />
              )}
            />
          )}
        </FormField>
        <FormField control={control} name="hormonalStage" id="settings-hormonal-stage" label="Hormonal stage">
          {(props) => (
            <Controller
              control={control}
              name="hormonalStage"
              render={({ field }) => (
                <Select
                  {...props}
                  ref={field.ref}
                  name={field.name}
                  value={field.value}
                  placeholder="Choose your stage"
                  onValueChange={field.onChange}
                  options={hormonalStageOptions}
                />
              )}
            />
          )}
        </FormField>
      </div>
      <div className="flex justify-end">
        <Button type="submit" pending={save.isPending} className="w-full sm:w-auto">
          {save.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
