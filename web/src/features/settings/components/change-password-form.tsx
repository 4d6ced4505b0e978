import { ChangePasswordRequest, PASSWORD_MIN_LENGTH } from '@sleepweave/contracts';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { isApiRequestError, isNetworkError, serverMessage } from '../../../lib/api-client';
import { setServerFieldError, useZodForm, type FormErrorMessages } from '../../../lib/form';
import { useChangePassword } from '../api/change-password';

type Values = { currentPassword: string; newPassword: string; confirmPassword: string };

const empty: Values = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The form's words for an empty new password and a confirmation that does not match. */
function formWords(values: Values): FormErrorMessages<Values> {
  return {
    newPassword: values.newPassword === '' ? 'Please enter a new password' : undefined,
    confirmPassword: values.confirmPassword !== '' && values.newPassword !== values.confirmPassword ? 'Passwords do not match' : undefined,
  };
}

/** A new password, with the current one; she stays signed in here, her other devices are signed out. */
export function ChangePasswordForm() {
  const form = useZodForm<Values, ChangePasswordRequest>(ChangePasswordRequest, {
    defaultValues: empty,
    formErrors: formWords,
  });
  const { control, register, handleSubmit, reset, setError } = form;

  const change = useChangePassword({
    onSuccess: (response) => {
      reset(empty);
      toast({ title: 'Password changed', description: response.message });
    },
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 403) {
        setError(
          'currentPassword',
          { type: 'server', message: serverMessage(error) ?? 'Your current password is not correct.' },
          { shouldFocus: true },
        );
        return;
      }
      if (setServerFieldError(form, error, (name): name is 'newPassword' => name === 'newPassword')) return;
      toast({
        title: 'Could not change your password',
        description: isNetworkError(error) ? 'Network error. Please try again.' : (serverMessage(error) ?? 'Please try again.'),
        variant: 'destructive',
      });
    },
  });

  return (
    <form noValidate onSubmit={handleSubmit((data) => change.mutate(data))} aria-label="Change password" className="grid gap-5">
      <FormField control={control} name="currentPassword" id="settings-current-password" label="Current password">
        {(props) => <Input {...props} type="password" autoComplete="current-password" required {...register('currentPassword')} />}
      </FormField>
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <FormField
          control={control}
          name="newPassword"
          id="settings-new-password"
          label="New password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        >
          {(props) => <Input {...props} type="password" autoComplete="new-password" required {...register('newPassword')} />}
        </FormField>
        <FormField control={control} name="confirmPassword" id="settings-confirm-password" label="Confirm new password">
          {(props) => <Input {...props} type="password" autoComplete="new-password" required {...register('confirmPassword')} />}
        </FormField>
      </div>
      <div className="flex justify-end">
        <Button type="submit" pending={change.isPending} className="w-full sm:w-auto">
          {change.isPending ? 'Changing Password...' : 'Change Password'}
        </Button>
      </div>
    </form>
  );
}
