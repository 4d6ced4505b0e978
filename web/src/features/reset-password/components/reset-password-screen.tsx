import { PASSWORD_MIN_LENGTH, ResetPasswordRequest } from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Clock, KeyRound, Link2Off, LoaderCircle, Moon } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { Input } from '../../../components/ui/input';
import { LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { isApiRequestError, isNetworkError, serverMessage } from '../../../lib/api-client';
import { clearSession } from '../../../lib/auth';
import { setServerFieldError, useZodForm, type FormErrorMessages } from '../../../lib/form';
import { useResetPassword } from '../api/reset-password';
import { useValidateResetToken } from '../api/validate-reset-token';

/** Spec docs/product.md §9: after a reset, /auth follows in 2 s. */
export const RESET_REDIRECT_DELAY_MS = 2000;

type Values = { password: string; confirmPassword: string };

/** The new password as the server checks it; the confirmation is checked here only. */
const NewPassword = ResetPasswordRequest.pick({ password: true }).extend({ confirmPassword: z.string() });

/** The form's words for what is missing or does not match (docs/product.md §5). */
function formWords(values: Values): FormErrorMessages<Values> {
  return {
    password: values.password === '' ? 'Please enter a new password' : undefined,
    confirmPassword:
      values.confirmPassword === ''
        ? 'Please confirm your new password'
        : values.password !== '' && values.password !== values.confirmPassword
          ? 'Passwords do not match'
          : undefined,
  };
}

/** /reset-password?token=...: checking the link, then the form or the invalid-link view. */
export function ResetPasswordScreen({ token }: { token: string }) {
  // Once her password is reset the link is used: it is not checked again. (Her session's end
  // clears every query, this one too, and the next render checked it again: 'Validating your
  // reset link...' over the confirmation, and a 400.)
  const [reset, setReset] = useState(false);
  const check = useValidateResetToken(token, { enabled: token !== '' && !reset });

  let content: ReactNode;
  if (token === '') {
    content = <InvalidLink message="No reset token provided" />;
  } else if (reset) {
    content = <NewPasswordForm token={token} onReset={() => setReset(true)} />;
  } else if (check.isPending) {
    content = <LoadingState text="Validating your reset link..." className="min-h-0 py-8" />;
  } else if (check.isError) {
    // A refusal of the link itself; not a limit reached (429), which says when to try again
    // (a new link would not help, and would use up one of the few she may ask for).
    const limited = isApiRequestError(check.error) && check.error.status === 429;
    const refused = isApiRequestError(check.error) && check.error.status >= 400 && check.error.status < 500 && !limited;
    content = refused ? (
      <InvalidLink message={serverMessage(check.error) ?? 'Invalid or expired reset token'} />
    ) : (
      <InvalidLink
        // the link may be fine: it could not be checked (a server failure, no connection)
        title={limited ? 'Too Many Attempts' : "Couldn't Check Your Link"}
        message={limited ? (serverMessage(check.error) ?? 'Failed to validate reset token') : 'Failed to validate reset token'}
        onRetry={() => void check.refetch()}
        retrying={check.isFetching}
      />
    );
  } else {
    content = <NewPasswordForm token={token} onReset={() => setReset(true)} />;
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

const INVALID_TITLE = 'Reset Link Invalid';

function InvalidLink({
  title = INVALID_TITLE,
  message,
  onRetry,
  retrying = false,
}: {
  title?: string | undefined;
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <div className="grid gap-5">
      <span className="grid size-12 place-items-center rounded-2xl bg-rose-50 text-rose-700">
        {title === INVALID_TITLE ? <Link2Off aria-hidden="true" className="size-6" /> : <Clock aria-hidden="true" className="size-6" />}
      </span>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold text-night-950">{title}</h1>
        <p role="alert" className="text-base text-night-700">
          {message}
        </p>
        {onRetry ? null : (
          <p className="text-base text-night-700">
            You can ask for a new link from the sign-in page with &ldquo;Forgot your password?&rdquo;.
          </p>
        )}
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

function NewPasswordForm({ token, onReset }: { token: string; onReset: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm<Values, z.output<typeof NewPassword>>(NewPassword, {
    defaultValues: { password: '', confirmPassword: '' },
    formErrors: formWords,
  });
  const { control, register, handleSubmit } = form;

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const reset = useResetPassword({
    onSuccess: () => {
      onReset();
      // every session of hers has ended, this browser's too
      clearSession(queryClient);
      redirectTimer.current = setTimeout(() => void navigate(paths.auth, { replace: true }), RESET_REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      // the server's word on the new password (too easy to guess) goes next to it
      if (setServerFieldError(form, error, (name): name is 'password' => name === 'password')) return;
      setFailure(isNetworkError(error) ? 'Network error. Please try again.' : (serverMessage(error) ?? 'Failed to reset password'));
    },
  });

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
    <form
      noValidate
      onSubmit={(event) => {
        setFailure(null);
        void handleSubmit((data) => reset.mutate({ token, password: data.password }))(event);
      }}
      aria-label="Reset password"
      className="grid gap-5"
    >
      <div className="grid gap-2">
        <span className="grid size-12 place-items-center rounded-2xl bg-night-100 text-night-700">
          <KeyRound aria-hidden="true" className="size-6" />
        </span>
        <h1 className="mt-2 text-2xl font-semibold text-night-950">Choose a new password</h1>
        <p className="text-base text-night-700">Pick something you haven&apos;t used here before. You&apos;ll sign in with it next.</p>
      </div>
      <FormField
        control={control}
        name="password"
        id="reset-new-password"
        label="New Password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      >
        {(props) => <Input {...props} type="password" autoComplete="new-password" required {...register('password')} />}
      </FormField>
      <FormField control={control} name="confirmPassword" id="reset-confirm-password" label="Confirm New Password">
        {(props) => <Input {...props} type="password" autoComplete="new-password" required {...register('confirmPassword')} />}
      </FormField>
      <FormMessage message={failure ? { kind: 'error', text: failure } : null} />
      <Button type="submit" size="lg" pending={reset.isPending} className="w-full">
        {reset.isPending ? 'Resetting Password...' : 'Reset Password'}
      </Button>
    </form>
  );
}
