import { FormMessage } from '../../../components/ui/form-message';
import { PASSWORD_MIN_LENGTH } from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, KeyRound, Link2Off, LoaderCircle, Moon } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { isApiRequestError, isNetworkError, serverMessage } from '../../../lib/api-client';
import { clearSession } from '../../../lib/auth';
import { useResetPassword } from '../api/reset-password';
import { useValidateResetToken } from '../api/validate-reset-token';

/** Spec section 9: after a reset, /auth follows in 2 s. */
export const RESET_REDIRECT_DELAY_MS = 2000;

type Values = { password: string; confirmPassword: string };
type Errors = Partial<Record<keyof Values, string>>;

function validate(values: Values): Errors {
  const errors: Errors = {};
  if (values.password === '') errors.password = 'Please enter a new password';
  else if (values.password.length < PASSWORD_MIN_LENGTH)
    errors.password = `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (values.confirmPassword === '') errors.confirmPassword = 'Please confirm your new password';
  else if (values.password !== '' && values.password !== values.confirmPassword) errors.confirmPassword = 'Passwords do not match';
  return errors;
}

/** /reset-password?token=...: checking the link, then the form or the invalid-link view. */
export function ResetPasswordScreen({ token }: { token: string }) {
  const check = useValidateResetToken(token, { enabled: token !== '' });

  let content: ReactNode;
  if (token === '') {
    content = <InvalidLink message="No reset token provided" />;
  } else if (check.isPending) {
    content = (
      <div className="grid justify-items-center gap-4 py-8 text-center text-night-700">
        <Spinner className="size-9" label="Validating your reset link" />
        <p className="text-lg">Validating your reset link...</p>
      </div>
    );
  } else if (check.isError) {
    const refused = isApiRequestError(check.error) && check.error.status >= 400 && check.error.status < 500;
    content = refused ? (
      <InvalidLink message={serverMessage(check.error) ?? 'Invalid or expired reset token'} />
    ) : (
      <InvalidLink message="Failed to validate reset token" onRetry={() => void check.refetch()} retrying={check.isFetching} />
    );
  } else {
    content = <NewPasswordForm token={token} />;
  }

  return (
    <main className="flex min-h-dvh items-start justify-center px-4 py-10 sm:items-center sm:py-16">
      <div className="w-full max-w-md">
        <Link
          to={paths.auth}
          className="mb-6 flex w-fit items-center gap-2.5 rounded-xl text-xl font-semibold tracking-tight text-night-900"
        >
          <span className="grid size-9 place-items-center rounded-xl bg-night-900 text-sand-200">
            <Moon aria-hidden="true" className="size-5" />
          </span>
          Sleepweave
        </Link>
        <Card className="p-6 sm:p-8">{content}</Card>
      </div>
    </main>
  );
}

function InvalidLink({ message, onRetry, retrying = false }: { message: string; onRetry?: () => void; retrying?: boolean }) {
  return (
    <div className="grid gap-5">
      <span className="grid size-12 place-items-center rounded-2xl bg-rose-50 text-rose-700">
        <Link2Off aria-hidden="true" className="size-6" />
      </span>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold text-night-950">Reset Link Invalid</h1>
        <p role="alert" className="text-base text-night-700">
          {message}
        </p>
        <p className="text-base text-night-700">
          You can ask for a new link from the sign-in page with &ldquo;Forgot your password?&rdquo;.
        </p>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button asChild size="lg" className="w-full sm:w-auto">
          <Link to={paths.auth} replace>
            Back to Login
          </Link>
        </Button>
        {onRetry ? (
          <Button variant="outline" size="lg" onClick={onRetry} pending={retrying} className="w-full sm:w-auto">
            Try again
          </Button>
        ) : null}
      </div>
    </div>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [values, setValues] = useState<Values>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const reset = useResetPassword({
    onSuccess: () => {
      // every session of hers has ended, this browser's too
      clearSession(queryClient);
      redirectTimer.current = setTimeout(() => void navigate(paths.auth, { replace: true }), RESET_REDIRECT_DELAY_MS);
    },
    onError: (error) =>
      setFailure(isNetworkError(error) ? 'Network error. Please try again.' : (serverMessage(error) ?? 'Failed to reset password')),
  });

  const update = (key: keyof Values) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: event.target.value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const found = validate(values);
    if (Object.values(found).some(Boolean)) {
      setErrors(found);
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    reset.mutate({ token, password: values.password });
  };

  if (reset.isSuccess) {
    return (
      <div className="grid gap-5" role="status">
        <span className="grid size-12 place-items-center rounded-2xl bg-emerald-50 text-emerald-700">
          <CircleCheck aria-hidden="true" className="size-6" />
        </span>
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold text-night-950">Password reset successfully!</h1>
          <p className="text-base text-night-700">{reset.data.message}</p>
          <p className="flex items-center gap-2 text-base text-night-600">
            <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" /> Taking you to sign in...
          </p>
        </div>
      </div>
    );
  }

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Reset password" className="grid gap-5">
      <div className="grid gap-2">
        <span className="grid size-12 place-items-center rounded-2xl bg-night-100 text-night-700">
          <KeyRound aria-hidden="true" className="size-6" />
        </span>
        <h1 className="mt-2 text-2xl font-semibold text-night-950">Choose a new password</h1>
        <p className="text-base text-night-700">Pick something you haven&apos;t used here before. You&apos;ll sign in with it next.</p>
      </div>
      <Field id="reset-new-password" label="New Password" hint={`At least ${PASSWORD_MIN_LENGTH} characters.`} error={errors.password}>
        {(control) => (
          <Input
            {...control}
            type="password"
            name="password"
            autoComplete="new-password"
            value={values.password}
            onChange={update('password')}
          />
        )}
      </Field>
      <Field id="reset-confirm-password" label="Confirm New Password" error={errors.confirmPassword}>
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
      <FormMessage message={failure ? { kind: 'error', text: failure } : null} />
      <Button type="submit" size="lg" pending={reset.isPending} className="w-full">
        {reset.isPending ? 'Resetting Password...' : 'Reset Password'}
      </Button>
    </form>
  );
}
