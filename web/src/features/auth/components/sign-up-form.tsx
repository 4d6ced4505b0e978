import { FormMessage, type FormMessageValue } from '../../../components/ui/form-message';
import {
  DEFAULT_HORMONAL_STAGE,
  DEFAULT_TIMEZONE,
  HORMONAL_STAGE_OPTIONS,
  RegisterRequest,
  TIMEZONE_OPTIONS,
  type AuthResponse,
} from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { paths } from '../../../config/paths';
import { isNetworkError, serverMessage } from '../../../lib/api-client';
import { setSessionUser } from '../../../lib/auth';
import { fieldErrors } from '../../../lib/form';
import { useRegister } from '../api/register';

/** Spec section 9: registration success waits 1.5 s before going to /dashboard. */
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
type Errors = Partial<Record<keyof Values, string>>;

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

function validate(values: Values): { errors: Errors; data?: RegisterRequest } {
  const parsed = RegisterRequest.safeParse(values);
  const errors: Errors = parsed.success ? {} : fieldErrors<keyof Values>(parsed.error);
  for (const [key, message] of Object.entries(REQUIRED) as [keyof Values, string][]) {
    if (values[key].trim() === '') errors[key] = message;
  }
  if (values.confirmPassword !== '' && values.password !== values.confirmPassword) {
    errors.confirmPassword = 'Passwords do not match';
  }
  if (Object.values(errors).some(Boolean) || !parsed.success) return { errors };
  return { errors: {}, data: parsed.data };
}

export function SignUpForm({ active }: { active: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [values, setValues] = useState<Values>(initialValues);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  const [attempt, setAttempt] = useState(0);
  const today = new Date().toISOString().slice(0, 10);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  // Switching tab clears messages (spec, /auth).
  useEffect(() => {
    if (!active) {
      setErrors({});
      setMessage((m) => (m?.kind === 'success' ? m : null));
    }
  }, [active]);

  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const registerMutation = useRegister({
    onSuccess: (response: AuthResponse) => {
      setMessage({ kind: 'success', text: 'Account created successfully! Redirecting...' });
      redirectTimer.current = setTimeout(() => {
        setSessionUser(queryClient, response.user);
        void navigate(paths.dashboard, { replace: true });
      }, REGISTRATION_REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      setMessage({
        kind: 'error',
        text: isNetworkError(error) ? 'Network error - please try again' : (serverMessage(error) ?? 'Registration failed'),
      });
    },
  });

  const set = (key: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const onInput = (key: keyof Values) => (event: { target: { value: string } }) => set(key, event.target.value);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMessage(null);
    const { errors: found, data } = validate(values);
    if (!data) {
      setErrors(found);
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    registerMutation.mutate(data);
  };

  const done = registerMutation.isSuccess;
  const busy = registerMutation.isPending || done;

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Sign up" className="grid gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="signup-first-name" label="First name" error={errors.firstName}>
          {(control) => (
            <Input
              {...control}
              name="firstName"
              autoComplete="given-name"
              required
              value={values.firstName}
              onChange={onInput('firstName')}
            />
          )}
        </Field>
        <Field id="signup-last-name" label="Last name" error={errors.lastName}>
          {(control) => (
            <Input
              {...control}
              name="lastName"
              autoComplete="family-name"
              required
              value={values.lastName}
              onChange={onInput('lastName')}
            />
          )}
        </Field>
      </div>
      <Field id="signup-email" label="Email" error={errors.email}>
        {(control) => (
          <Input
            {...control}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            value={values.email}
            onChange={onInput('email')}
          />
        )}
      </Field>
      <Field id="signup-password" label="Password" hint="At least 8 characters." error={errors.password}>
        {(control) => (
          <Input
            {...control}
            type="password"
            name="password"
            autoComplete="new-password"
            required
            value={values.password}
            onChange={onInput('password')}
          />
        )}
      </Field>
      <Field id="signup-confirm-password" label="Confirm password" error={errors.confirmPassword}>
        {(control) => (
          <Input
            {...control}
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={values.confirmPassword}
            onChange={onInput('confirmPassword')}
          />
        )}
      </Field>
      <Field id="signup-date-of-birth" label="Date of birth" error={errors.dateOfBirth}>
        {(control) => (
          <Input
            {...control}
            type="date"
            name="dateOfBirth"
            autoComplete="bday"
            min="1900-01-01"
            max={today}
            required
            value={values.dateOfBirth}
            onChange={onInput('dateOfBirth')}
          />
        )}
      </Field>
      <div className="grid gap-5">
        <Field id="signup-timezone" label="Timezone" error={errors.timezone}>
          {(control) => (
            <Select
              {...control}
              name="timezone"
              required
              value={values.timezone}
              onValueChange={(value) => set('timezone', value)}
              options={TIMEZONE_OPTIONS}
            />
          )}
        </Field>
        <Field id="signup-hormonal-stage" label="Hormonal stage" error={errors.hormonalStage}>
          {(control) => (
            <Select
              {...control}
              name="hormonalStage"
              required
              value={values.hormonalStage}
              onValueChange={(value) => set('hormonalStage', value)}
              options={hormonalStageOptions}
            />
          )}
        </Field>
      </div>

      <FormMessage message={message} />

      <Button type="submit" size="lg" pending={busy} className="w-full">
        {registerMutation.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
