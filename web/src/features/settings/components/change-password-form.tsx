import { ChangePasswordRequest, PASSWORD_MIN_LENGTH } from '@sleepweave/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { isApiRequestError, isNetworkError, serverMessage } from '../../../lib/api-client';
import { fieldErrors } from '../../../lib/form';
import { useChangePassword } from '../api/change-password';

type Values = { currentPassword: string; newPassword: string; confirmPassword: string };
type Errors = Partial<Record<keyof Values, string>>;
const empty: Values = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** A new password, with the current one; she stays signed in here, her other devices are signed out. */
export function ChangePasswordForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const change = useChangePassword({
    onSuccess: (response) => {
      setValues(empty);
      toast({ title: 'Password changed', description: response.message });
    },
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 403) {
        setErrors({ currentPassword: serverMessage(error) ?? 'Your current password is not correct.' });
        setAttempt((n) => n + 1);
        return;
      }
      toast({
        title: 'Could not change your password',
        description: isNetworkError(error) ? 'Network error. Please try again.' : (serverMessage(error) ?? 'Please try again.'),
        variant: 'destructive',
      });
    },
  });

  const update = (key: keyof Values) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: event.target.value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = ChangePasswordRequest.safeParse(values);
    const found: Errors = parsed.success ? {} : fieldErrors<keyof Values>(parsed.error);
    if (values.newPassword === '') found.newPassword = 'Please enter a new password';
    if (values.confirmPassword !== '' && values.newPassword !== values.confirmPassword) found.confirmPassword = 'Passwords do not match';
    if (!parsed.success || Object.values(found).some(Boolean)) {
      setErrors(found);
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    change.mutate(parsed.data);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Change password" className="grid gap-5">
      <Field id="settings-current-password" label="Current password" error={errors.currentPassword}>
        {(control) => (
          <Input
            {...control}
            type="password"
            name="currentPassword"
            autoComplete="current-password"
            value={values.currentPassword}
            onChange={update('currentPassword')}
          />
        )}
      </Field>
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <Field
          id="settings-new-password"
          label="New password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={errors.newPassword}
        >
          {(control) => (
            <Input
              {...control}
              type="password"
              name="newPassword"
              autoComplete="new-password"
              value={values.newPassword}
              onChange={update('newPassword')}
            />
          )}
        </Field>
        <Field id="settings-confirm-password" label="Confirm new password" error={errors.confirmPassword}>
          {(control) => (
            <Input
              {...control}
              type="password"
              name="confirmPassword"
              autoComplete="new-password"
              value={values.confirmPassword}
              onChange={update('confirmPassword')}
            />
          )}
        </Field>
      </div>
      <div className="flex justify-end">
        <Button type="submit" pending={change.isPending} className="w-full sm:w-auto">
          {change.isPending ? 'Changing Password...' : 'Change Password'}
        </Button>
      </div>
    </form>
  );
}
