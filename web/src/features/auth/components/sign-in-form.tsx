import { LoginRequest } from '@sleepweave/contracts';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { dismiss, toast } from '../../../components/ui/toast-store';
import { isNetworkError, serverMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { afterSignIn } from '../../../lib/sign-in-return';
import { useLogin } from '../api/login';
import type { AuthFormHandle } from './auth-form-handle';
import { ResetPasswordDialog } from './reset-password-dialog';

type Values = { email: string; password: string };

export function SignInForm({ ref, shown: shownNow = true }: { ref?: Ref<AuthFormHandle>; shown?: boolean }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { control, register, handleSubmit, clearErrors, getValues, setFocus } = useZodForm<Values, LoginRequest>(LoginRequest, {
    defaultValues: { email: '', password: '' },
  });

  /** Whether its tab is the one shown (the form stays made while Sign Up shows). */
  const shown = useRef(shownNow);
  useEffect(() => {
    shown.current = shownNow;
  }, [shownNow]);
  /** The toast of her last failed attempt, while it shows. */
  const failure = useRef<{ dismiss: () => void } | null>(null);
  // Switching tab clears messages (spec, /auth): the fields' and a failed attempt's toast.
  useImperativeHandle(
    ref,
    () => ({
      clearMessages: () => {
        clearErrors();
        failure.current?.dismiss();
        failure.current = null;
      },
    }),
    [clearErrors],
  );

  const loginMutation = useLogin({
    onSuccess: (response) => {
      // what was said before she signed in ('Unauthorized', a failed attempt) is over; errors otherwise stay until closed
      dismiss();
      toast({ title: 'Welcome back!', description: 'You have successfully logged in.' });
      // back where her session ended or a link took her, if so (lib/sign-in-return.ts)
      void navigate(afterSignIn(location.state, response.user), { replace: true });
    },
    onError: (error) => {
      // answered while Sign Up shows: its failure is not said over that form (switching tab
      // clears messages); back on Sign In, it is
      if (!shown.current) return;
      failure.current = toast({
        title: 'Login failed',
        description: isNetworkError(error) ? 'Network error - please try again' : (serverMessage(error) ?? 'Login failed'),
        variant: 'destructive',
      });
      // back in her password, selected, to type it again (on a phone the button kept the focus)
      setFocus('password', { shouldSelect: true });
    },
  });

  return (
    <form noValidate onSubmit={handleSubmit((data) => loginMutation.mutate(data))} aria-label="Sign in" className="grid gap-5">
      <FormField control={control} name="email" id="signin-email" label="Email">
        {(props) => <Input {...props} type="email" autoComplete="email" inputMode="email" required {...register('email')} />}
      </FormField>
      <FormField control={control} name="password" id="signin-password" label="Password">
        {(props) => <Input {...props} type="password" autoComplete="current-password" required {...register('password')} />}
      </FormField>
      <div className="-mt-1 flex justify-end">
        <ResetPasswordDialog suggestEmail={() => getValues('email').trim()} />
      </div>
      <Button type="submit" size="lg" pending={loginMutation.isPending} className="w-full">
        {loginMutation.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
