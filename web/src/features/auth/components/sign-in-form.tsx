import { LoginRequest } from '@sleepweave/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { isNetworkError, serverMessage } from '../../../lib/api-client';
import { fieldErrors } from '../../../lib/form';
import { useLogin } from '../api/login';
import { ResetPasswordDialog } from './reset-password-dialog';

type Values = { email: string; password: string };
type Errors = Partial<Record<keyof Values, string>>;

export function SignInForm({ active }: { active: boolean }) {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>({ email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [attempt, setAttempt] = useState(0);

  // Switching tab clears messages (spec, /auth).
  useEffect(() => {
    if (!active) setErrors({});
  }, [active]);

  // After a refused submit, take her to the first field that needs attention.
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const loginMutation = useLogin({
    onSuccess: () => {
      toast({ title: 'Welcome back!', description: 'You have successfully logged in.' });
      void navigate(paths.dashboard, { replace: true });
    },
    onError: (error) => {
      toast({
        title: 'Login failed',
        description: isNetworkError(error) ? 'Network error - please try again' : (serverMessage(error) ?? 'Login failed'),
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
    const parsed = LoginRequest.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<keyof Values>(parsed.error));
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    loginMutation.mutate(parsed.data);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Sign in" className="grid gap-5">
      <Field id="signin-email" label="Email" error={errors.email}>
        {(control) => (
          <Input
            {...control}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            value={values.email}
            onChange={update('email')}
          />
        )}
      </Field>
      <Field id="signin-password" label="Password" error={errors.password}>
        {(control) => (
          <Input
            {...control}
            type="password"
            name="password"
            autoComplete="current-password"
            value={values.password}
            onChange={update('password')}
          />
        )}
      </Field>
      <div className="-mt-1 flex justify-end">
        <ResetPasswordDialog defaultEmail={values.email.trim()} />
      </div>
      <Button type="submit" size="lg" pending={loginMutation.isPending} className="w-full">
        {loginMutation.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
