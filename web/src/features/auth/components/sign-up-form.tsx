import {
  DEFAULT_HORMONAL_STAGE,
  DEFAULT_TIMEZONE,
  HORMONAL_STAGE_OPTIONS,
  latestDateOfBirth,
  RegisterRequest,
  TIMEZONE_OPTIONS,
  type AuthResponse,
} from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Controller } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { FormMessage, type FormMessageValue } from '../../../components/ui/form-message';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { dismiss } from '../../../components/ui/toast-store';
import { paths } from '../../../config/paths';
import { isNetworkError, serverMessage } from '../../../lib/api-client';
import { setSessionUser } from '../../../lib/auth';
import { setServerFieldError, useZodForm, type FormErrorMessages } from '../../../lib/form';
import { useOneAtATime } from '../../../lib/one-at-a-time';
import { useRegister } from '../api/register';
import type { AuthFormHandle } from './auth-form-handle';

/** Spec docs/product.md §9: registration success waits 1.5 s before going to /dashboard. */
export const REGISTRATION_REDIRECT_DELAY_MS = 1500;

type Values = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  dateOfBirth: string;
  timezone: string;
  hormonalStage: string;
};

/** What the form says of a field left empty (the schema's words are about its format). */
const REQUIRED: Partial<Record<keyof Values, string>> = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  email: 'Please enter a valid email address',
  password: 'Password is required',
  confirmPassword: 'Please confirm your password',
  dateOfBirth: 'Date of birth is required',
};

const initialValues: Values = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  dateOfBirth: '',
  timezone: DEFAULT_TIMEZONE,
  hormonalStage: DEFAULT_HORMONAL_STAGE,
};

const hormonalStageOptions = HORMONAL_STAGE_OPTIONS.map((stage) => ({ value: stage, label: stage }));

/** docs/product.md §5: the form shows 'Passwords do not match' (the schema says "Passwords don't match"). */
function formWords(values: Values): FormErrorMessages<Values> {
  const words: FormErrorMessages<Values> = {};
  for (const [key, message] of Object.entries(REQUIRED) as [keyof Values, string][]) {
    if (values[key].trim() === '') words[key] = message;
  }
  if (values.confirmPassword !== '' && values.password !== values.confirmPassword) words.confirmPassword = 'Passwords do not match';
  return words;
}

export function SignUpForm({ ref }: { ref?: Ref<AuthFormHandle> }) {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  const form = useZodForm<Values, RegisterRequest>(RegisterRequest, {
    defaultValues: initialValues,
    formErrors: formWords,
  });
  const { control, register, handleSubmit, clearErrors } = form;

  const latest = latestDateOfBirth();

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  // Switching tab clears messages (spec, /auth); a success stays until she is taken on.
  useImperativeHandle(
    ref,
    () => ({
      clearMessages: () => {
        clearErrors();
        setMessage((m) => (m?.kind === 'success' ? m : null));
      },
    }),
    [clearErrors],
  );

  const registerMutation = useRegister({
    onSuccess: (response: AuthResponse) => {
      dismiss(); // what was said before she signed up is over (errors otherwise stay until closed)
      setMessage({ kind: 'success', text: 'Account created successfully! Redirecting...' });
      // She goes to /dashboard (spec), not to a page a sign-in would go back to: /auth, seeing
      // her signed in, takes her on too (app/routes/auth.tsx), and must find none.
      if (location.state !== null) void navigate(location, { replace: true, state: null });
      redirectTimer.current = setTimeout(() => {
        setSessionUser(queryClient, response.user);
        void navigate(paths.dashboard, { replace: true });
      }, REGISTRATION_REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      // the server's word on one field (a password too easy to guess) goes next to it
      if (setServerFieldError(form, error, (name): name is 'password' => name === 'password')) return;
      setMessage({
        kind: 'error',
        text: isNetworkError(error) ? 'Network error - please try again' : (serverMessage(error) ?? 'Registration failed'),
      });
    },
  });

  const once = useOneAtATime();
  const done = registerMutation.isSuccess;
  const busy = registerMutation.isPending || done;

  return (
    <form
      noValidate
      onSubmit={(event) => {
        setMessage(null);
        void handleSubmit((data) => once(() => registerMutation.mutateAsync(data)))(event);
      }}
      aria-label="Sign up"
      className="grid gap-5"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField control={control} name="firstName" id="signup-first-name" label="First name">
          {(props) => <Input {...props} autoComplete="given-name" required {...register('firstName')} />}
        </FormField>
        <FormField control={control} name="lastName" id="signup-last-name" label="Last name">
          {(props) => <Input {...props} autoComplete="family-name" required {...register('lastName')} />}
        </FormField>
      </div>
      <FormField control={control} name="email" id="signup-email" label="Email">
        {(props) => <Input {...props} type="email" autoComplete="email" inputMode="email" required {...register('email')} />}
      </FormField>
      <FormField control={control} name="password" id="signup-password" label="Password" hint="At least 8 characters.">
        {(props) => <Input {...props} type="password" autoComplete="new-password" required {...register('password')} />}
      </FormField>
      <FormField control={control} name="confirmPassword" id="signup-confirm-password" label="Confirm password">
        {(props) => <Input {...props} type="password" autoComplete="new-password" required {...register('confirmPassword')} />}
      </FormField>
      <FormField control={control} name="dateOfBirth" id="signup-date-of-birth" label="Date of birth">
        {(props) => (
          <Input {...props} type="date" autoComplete="bday" min="1900-01-01" max={latest} required {...register('dateOfBirth')} />
        )}
      </FormField>
      <div className="grid gap-5">
        <FormField control={control} name="timezone" id="signup-timezone" label="Timezone">
          {(props) => (
            <Controller
              control={control}
              name="timezone"
              render={({ field }) => (
                <Select
                  {...props}
                  ref={field.ref}
                  name={field.name}
                  required
                  value={field.value}
                  onValueChange={field.onChange}
                  options={TIMEZONE_OPTIONS}
                />
              )}
            />
          )}
        </FormField>
        <FormField control={control} name="hormonalStage" id="signup-hormonal-stage" label="Hormonal stage">
          {(props) => (
            <Controller
              control={control}
              name="hormonalStage"
              render={({ field }) => (
                <Select
                  {...props}
                  ref={field.ref}
                  name={field.name}
                  required
                  value={field.value}
                  onValueChange={field.onChange}
                  options={hormonalStageOptions}
                />
              )}
            />
          )}
        </FormField>
      </div>

      <FormMessage message={message} />

      <Button type="submit" size="lg" pending={busy} className="w-full">
        {registerMutation.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
