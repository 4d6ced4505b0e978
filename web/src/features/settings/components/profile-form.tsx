import { HORMONAL_STAGE_OPTIONS, TIMEZONE_OPTIONS, UpdateProfileRequest, type User } from '@sleepweave/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { isNetworkError, serverMessage } from '../../../lib/api-client';
import { fieldErrors } from '../../../lib/form';
import { useUpdateProfile } from '../api/update-profile';

type Values = { firstName: string; lastName: string; timezone: string; hormonalStage: string };
type Errors = Partial<Record<keyof Values, string>>;

const hormonalStageOptions = HORMONAL_STAGE_OPTIONS.map((stage) => ({ value: stage, label: stage }));

const valuesOf = (user: User): Values => ({
  firstName: user.firstName,
  lastName: user.lastName,
  timezone: user.timezone,
  hormonalStage: user.hormonalStage ?? '',
});

/** Her profile: names, timezone, hormonal stage; the e-mail is shown but not changed here. */
export function ProfileForm({ user }: { user: User }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(() => valuesOf(user));
  const [errors, setErrors] = useState<Errors>({});
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const save = useUpdateProfile({
    onSuccess: (updated) => {
      setValues(valuesOf(updated));
      toast({ title: 'Settings saved', description: 'Your profile has been updated.' });
    },
    onError: (error) =>
      toast({
        title: 'Could not save your settings',
        description: isNetworkError(error) ? 'Network error. Please try again.' : (serverMessage(error) ?? 'Please try again.'),
        variant: 'destructive',
      }),
  });

  const set = (key: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = UpdateProfileRequest.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors<keyof Values>(parsed.error);
      if (values.hormonalStage === '') found.hormonalStage = 'Please choose your hormonal stage';
      setErrors(found);
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Profile" className="grid gap-5">
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <Field id="settings-first-name" label="First name" error={errors.firstName}>
          {(control) => (
            <Input
              {...control}
              name="firstName"
              autoComplete="given-name"
              value={values.firstName}
              onChange={(e) => set('firstName', e.target.value)}
            />
          )}
        </Field>
        <Field id="settings-last-name" label="Last name" error={errors.lastName}>
          {(control) => (
            <Input
              {...control}
              name="lastName"
              autoComplete="family-name"
              value={values.lastName}
              onChange={(e) => set('lastName', e.target.value)}
            />
          )}
        </Field>
      </div>
      <Field id="settings-email" label="Email" hint="Your email address is how you sign in; it can't be changed here.">
        {(control) => <Input {...control} type="email" name="email" value={user.email} readOnly className="bg-night-50 text-night-800" />}
      </Field>
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <Field id="settings-timezone" label="Timezone" error={errors.timezone}>
          {(control) => (
            <Select
              {...control}
              name="timezone"
              value={values.timezone}
              onValueChange={(value) => set('timezone', value)}
              options={TIMEZONE_OPTIONS}
            />
          )}
        </Field>
        <Field id="settings-hormonal-stage" label="Hormonal stage" error={errors.hormonalStage}>
          {(control) => (
            <Select
              {...control}
              name="hormonalStage"
              value={values.hormonalStage}
              placeholder="Choose your stage"
              onValueChange={(value) => set('hormonalStage', value)}
              options={hormonalStageOptions}
            />
          )}
        </Field>
      </div>
      <div className="flex justify-end">
        <Button type="submit" pending={save.isPending} className="w-full sm:w-auto">
          {save.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
