import { CURRENT_PROTOCOL } from '@sleepweave/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { CHECK_CONNECTION, ErrorState, LoadingState } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { failureMessage, isApiRequestError } from '../../../lib/api-client';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useOneAtATime } from '../../../lib/one-at-a-time';
import { useConsent } from '../api/get-consent';
import { useGiveConsent } from '../api/give-consent';
import { DailyRoutine, ProtocolMoreDetails, ProtocolPhases, RoomAndBed } from './protocol-details';

/** /sleep/consent: the protocol, the agreement, and the start of her study. */
export function ConsentScreen() {
  const navigate = useNavigate();
  const consent = useConsent();
  const loggedOut = useLoggedOutRedirect();
  const [agreed, setAgreed] = useState(false);
  /** Accept was pressed with the box not ticked: the box says so, and has the focus (it stayed on the button). */
  const [missing, setMissing] = useState(false);
  const checkboxId = useId();
  const checkbox = useRef<HTMLInputElement>(null);

  const once = useOneAtATime();
  const give = useGiveConsent({
    onSuccess: () => {
      toast({ title: 'Consent Recorded', description: 'Thank you for joining our sleep study!' });
      void navigate(paths.sleep.log, { replace: true });
    },
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) {
        loggedOut();
        return;
      }
      toast({ title: 'Error', description: failureMessage(error, 'Failed to record consent. Please try again.'), variant: 'destructive' });
    },
  });

  const hasConsent = consent.data?.hasConsent === true;
  useEffect(() => {
    if (hasConsent && !give.isSuccess) void navigate(paths.sleep.log, { replace: true });
  }, [hasConsent, give.isSuccess, navigate]);

  if (consent.isPending) return <LoadingState text="Loading consent status..." />;
  // A failed background reload keeps the page (and her ticked box): the error is for a status never loaded.
  if (consent.data === undefined) {
    return (
      <ErrorState
        title="We couldn't load your consent status"
        text={CHECK_CONNECTION}
        error={consent.error}
        onRetry={() => void consent.refetch()}
        retrying={consent.isFetching}
      />
    );
  }
  if (hasConsent) return <LoadingState text="Redirecting to sleep log..." />;

  const accept = () => {
    if (!agreed) {
      toast({ title: 'Agreement Required', description: 'Please check the consent box to continue', variant: 'destructive' });
      setMissing(true);
      checkbox.current?.focus();
      return;
    }
    once(() => give.mutateAsync());
  };

  return (
    <div className="mx-auto grid w-full max-w-4xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="max-w-2xl">
        <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">{CURRENT_PROTOCOL.title}</h1>
        <p className="mt-3 text-lg text-night-700">Please read how the study works. When you accept, your 42 days begin today.</p>
      </header>

      <Card className="grid gap-8 p-6 sm:p-8">
        <ProtocolPhases />
        <DailyRoutine />
        <RoomAndBed />
      </Card>

      <Card className="grid gap-6 p-6 sm:p-8">
        <div className="flex items-start gap-3">
          <input
            ref={checkbox}
            id={checkboxId}
            type="checkbox"
            required
            checked={agreed}
            aria-invalid={missing && !agreed ? true : undefined}
            aria-describedby={missing && !agreed ? `${checkboxId}-error` : undefined}
            onChange={(event) => setAgreed(event.target.checked)}
            className="mt-1 size-5 shrink-0 cursor-pointer accent-night-700"
          />
          <label htmlFor={checkboxId} className="cursor-pointer text-base text-night-900">
            {CURRENT_PROTOCOL.agreement}
          </label>
        </div>
        {missing && !agreed ? (
          <p id={`${checkboxId}-error`} className="-mt-3 text-base font-medium text-rose-700">
            Please check the consent box to continue
          </p>
        ) : null}
        <div className="flex flex-col gap-3 sm:flex-row">
          {/* aria-disabled, not disabled: it still explains itself when pressed before ticking. */}
          <Button
            size="lg"
            aria-disabled={!agreed}
            pending={give.isPending}
            onClick={accept}
            className="aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
          >
            Accept &amp; Continue to Sleep Study
          </Button>
          <Dialog>
            <DialogTrigger asChild>
              <Button size="lg" variant="outline">
                Learn More
              </Button>
            </DialogTrigger>
            <DialogContent className="max-h-[85dvh] max-w-2xl overflow-y-auto">
              <DialogTitle>About the sleep study</DialogTitle>
              <DialogDescription>{CURRENT_PROTOCOL.intro}</DialogDescription>
              <ProtocolMoreDetails />
            </DialogContent>
          </Dialog>
        </div>
      </Card>
    </div>
  );
}
