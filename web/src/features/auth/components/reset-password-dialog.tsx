import { ForgotPasswordRequest } from '@sleepweave/contracts';
import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogActions,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { FormMessage, type FormMessageValue } from '../../../components/ui/form-message';
import { Input } from '../../../components/ui/input';
import { isNetworkError, serverMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { useForgotPassword } from '../api/forgot-password';

/**
 * "Forgot your password?" opens the Reset Password modal: she types her e-mail and gets
 * a link by mail. The answer is the server's, the same whether the address is registered.
 */
export function ResetPasswordDialog({ suggestEmail }: { suggestEmail: () => string }) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  const { control, register, handleSubmit, reset, getValues } = useZodForm<ForgotPasswordRequest, ForgotPasswordRequest>(
    ForgotPasswordRequest,
    { defaultValues: { email: '' } },
  );

  const forgot = useForgotPassword({
    onSuccess: (response) => setMessage({ kind: 'success', text: response.message }),
    onError: (err) =>
      setMessage({
        kind: 'error',
        text: isNetworkError(err) ? 'Network error. Please try again.' : (serverMessage(err) ?? 'Failed to send reset email'),
      }),
  });

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      // a fresh start each time; what she typed on the sign-in form is a good guess
      reset({ email: getValues('email') || suggestEmail() });
      setMessage(null);
      forgot.reset();
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // the sign-in form around this dialog must not submit too
    event.stopPropagation();
    setMessage(null);
    void handleSubmit((data) => forgot.mutate(data))(event);
  };

  const sent = forgot.isSuccess;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="link">Forgot your password?</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Reset Password</DialogTitle>
        <DialogDescription>
          Enter the email address of your account and we&apos;ll send you a link to choose a new password.
        </DialogDescription>
        <form noValidate onSubmit={onSubmit} aria-label="Reset password" className="grid gap-5">
          <FormField control={control} name="email" id="reset-email" label="Email">
            {(props) => (
              <Input {...props} type="email" autoComplete="email" inputMode="email" readOnly={sent} required {...register('email')} />
            )}
          </FormField>

          <FormMessage message={message} successIcon={MailCheck} />

          <DialogActions>
            <DialogClose asChild>
              <Button variant={sent ? 'primary' : 'outline'}>{sent ? 'Done' : 'Cancel'}</Button>
            </DialogClose>
            {sent ? null : (
              <Button type="submit" pending={forgot.isPending}>
                {forgot.isPending ? 'Sending...' : 'Send Reset Link'}
              </Button>
            )}
          </DialogActions>
        </form>
      </DialogContent>
    </Dialog>
  );
}
