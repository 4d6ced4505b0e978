import { Moon, NotebookPen, Shirt, Sparkles } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import type { AuthFormHandle } from './auth-form-handle';
import { SignInForm } from './sign-in-form';
import { LoadErrorBoundary } from '../../../components/ui/load-error-boundary';

// The sign-up form (and its selects) is a chunk of its own, fetched when she reaches for the
// Sign Up tab (pointer over it, focus, or the click itself): a first visit to sign in
// downloads and runs one form, not two.
const loadSignUpForm = () => import('./sign-up-form');
const SignUpForm = lazy(() => loadSignUpForm().then(({ SignUpForm }) => ({ default: SignUpForm })));
/** Fetched ahead of the click; a failure is shown if and when the form is opened. */
const preloadSignUpForm = () => void loadSignUpForm().catch(() => undefined);

type Mode = 'signin' | 'signup';

const highlights = [
  { icon: Shirt, text: 'A 42-day study of how natural fabrics change your nights' },
  { icon: Moon, text: 'A calm place to log each night’s sleep' },
  { icon: NotebookPen, text: 'A daily journal for affirmation, gratitude and forgiveness' },
] as const;

/** /auth: Sign In and Sign Up tabs beside a quiet welcome. */
export function AuthScreen() {
  const [mode, setMode] = useState<Mode>('signin');
  // The sign-up form is made the first time its tab opens, then kept (hidden, what she typed
  // in it too) like the sign-in form.
  const [signUpOpened, setSignUpOpened] = useState(false);
  const signIn = useRef<AuthFormHandle>(null);
  const signUp = useRef<AuthFormHandle>(null);

  // Switching tab clears messages (spec, /auth); what she typed stays.
  const onTabChange = (value: string) => {
    setMode(value as Mode);
    if (value === 'signup') setSignUpOpened(true);
    signIn.current?.clearMessages();
    signUp.current?.clearMessages();
  };

  return (
    <div className="min-h-dvh lg:grid lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <section
        aria-labelledby="auth-welcome"
        className="surface-night relative overflow-hidden bg-night-950 bg-linear-to-br from-night-950 via-night-900 to-night-800 px-6 pt-8 pb-14 text-lavender-100 sm:px-10 sm:pt-10 sm:pb-16 lg:flex lg:flex-col lg:justify-center lg:px-14 lg:py-16"
      >
        <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-night-700/40 blur-3xl" />
        <div aria-hidden="true" className="pointer-events-none absolute bottom-0 left-10 size-48 rounded-full bg-sand-400/10 blur-3xl" />
        <div className="relative mx-auto w-full max-w-md lg:mx-0">
          <p className="flex items-center gap-2.5 text-2xl font-semibold tracking-tight text-white">
            <span className="grid size-10 place-items-center rounded-2xl bg-sand-200 text-night-900">
              <Moon aria-hidden="true" className="size-5" />
            </span>
            Sleepweave
          </p>
          {/* on a phone the welcome is short, so that she can sign in without scrolling first */}
          <h1 id="auth-welcome" className="mt-5 text-2xl leading-tight font-semibold text-white sm:mt-8 sm:text-4xl">
            Your journey toward better sleep starts tonight.
          </h1>
          <p className="mt-4 hidden text-lg text-lavender-200 sm:block">
            Gentle support for women through menopause and every season of life: rest, reflect and wake a little lighter.
          </p>
          <ul className="mt-8 hidden gap-4 sm:grid">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-3 text-base text-lavender-100">
                <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-white/10 text-sand-200">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <span className="pt-1.5">{text}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <main className="relative z-10 -mt-8 px-4 pb-12 sm:px-8 lg:mt-0 lg:flex lg:items-center lg:justify-center lg:py-16">
        <Card className="mx-auto w-full max-w-lg p-6 sm:p-8">
          <Tabs value={mode} onValueChange={onTabChange}>
            <TabsList aria-label="Sign in or create an account">
              <TabsTrigger value="signin">Sign In</TabsTrigger>
              <TabsTrigger value="signup" onPointerEnter={preloadSignUpForm} onFocus={preloadSignUpForm}>
                Sign Up
              </TabsTrigger>
            </TabsList>
            <TabsContent value="signin" forceMount>
              <h2 className="mb-4 text-2xl font-semibold text-night-950 sm:mb-1">Welcome back</h2>
              {/* on a phone it says again what the welcome above has just said, and put Sign In below the screen */}
              <p className="mb-6 hidden items-center gap-2 text-base text-night-700 sm:flex">
                <Sparkles aria-hidden="true" className="size-4 text-sand-600" />
                Sign in to continue your journey toward better sleep.
              </p>
              <SignInForm ref={signIn} shown={mode === 'signin'} />
            </TabsContent>
            <TabsContent value="signup" forceMount>
              {signUpOpened && (
                <>
                  <h2 className="mb-1 text-2xl font-semibold text-night-950">Create your account</h2>
                  <p className="mb-6 text-base text-night-700">A few details help us tailor the study to you.</p>
                  <LoadErrorBoundary what="sign-up form">
                    <Suspense
                      fallback={
                        <div className="flex justify-center py-10 text-night-600">
                          <Spinner className="size-8" label="Loading the sign-up form" />
                        </div>
                      }
                    >
                      <SignUpForm ref={signUp} />
                    </Suspense>
                  </LoadErrorBoundary>
                </>
              )}
            </TabsContent>
          </Tabs>
        </Card>
      </main>
    </div>
  );
}
