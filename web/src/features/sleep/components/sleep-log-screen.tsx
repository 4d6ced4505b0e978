import { CalendarDate, calendarDateIn, defaultLogNight, lastEndedNight } from '@sleepweave/contracts';
import { useQuery } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { CHECK_CONNECTION, ErrorState, LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { useConsent } from '../api/get-consent';
import { sleepLogsQueryOptions } from '../api/get-sleep-logs';
import { useStudyProfile } from '../api/get-study-profile';
import { useNightClock } from '../../../lib/use-night-clock';
import { SleepLogForm, type SleepLogFormProps } from './sleep-log-form';

/** What the form writes in the history entry with the night she chose (not a link from elsewhere). */
interface ChosenState {
  nightChosen?: string;
}

/**
 * The form, with the night she chooses in the address (?date=): a reload or a bookmark
 * opens that night, not the one she came with (with ?edit= of another night, a reload
 * opened the night she had left). A new address opens the form again, on its night; the
 * one the form wrote does not (that would drop what she typed).
 */
function SleepLogFormInAddress(props: Omit<SleepLogFormProps, 'onNightChosen'>) {
  const { initialDate } = props;
  const [, setParams] = useSearchParams();
  const written = (useLocation().state as ChosenState | null)?.nightChosen;
  // each opening of the form a key of its own (a date is not: a link back to the night she came with reused it)
  const [shown, setShown] = useState({ key: 0, date: initialDate });
  if (shown.date !== initialDate) setShown({ key: written === initialDate ? shown.key : shown.key + 1, date: initialDate });
  return (
    <SleepLogForm
      {...props}
      key={shown.key}
      onNightChosen={(night) => {
        if (night === initialDate) return;
        const state: ChosenState = { nightChosen: night };
        setParams({ date: night }, { replace: true, preventScrollReset: true, state });
      }}
    />
  );
}

/**
 * /sleep/log?edit={id}&date={date}: the form for one night. Her timezone and study start
 * date come from GET /api/auth/user (the start date also from her consent, which this
 * service knows at once); without consent she is sent to the consent page first. Without
 * a date it opens on the night that just ended in her timezone (defaultLogNight).
 */
export function SleepLogScreen() {
  const [params] = useSearchParams();
  const profile = useStudyProfile();
  const consent = useConsent();
  const editId = params.get('edit');
  const dateParam = params.get('date');
  const validDate = dateParam !== null && CalendarDate.safeParse(dateParam).success ? dateParam : null;
  // edit without a date: find the night in her list.
  const needList = editId !== null && validDate === null;
  const logs = useQuery({ ...sleepLogsQueryOptions(), enabled: needList });
  const now = useNightClock(profile.data?.timezone);
  // When the page opened: the night it opens on without a date in the address. (Taken from
  // `now`, the form opened again on each new night, dropping what she had typed; it moves on
  // itself, when she has typed nothing: `defaultNight`.)
  const [openedAt] = useState(now);

  const header = (
    <header className="max-w-2xl">
      <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Sleep Log</h1>
      <p className="mt-3 text-lg text-night-700">One night at a time: what you wore, what your ring measured and how you felt.</p>
    </header>
  );
  const wrap = (content: ReactNode) => (
    <div className="mx-auto grid w-full max-w-4xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      {header}
      {content}
    </div>
  );

  if (profile.isPending || consent.isPending || (needList && logs.isPending))
    return wrap(<LoadingState text="Loading your sleep log..." />);
  // Only what never loaded is an error: a failed background reload keeps the form she is filling in.
  if (profile.data === undefined || consent.data === undefined || (needList && logs.data === undefined)) {
    return wrap(
      <ErrorState
        title="We couldn't load your sleep log"
        text={CHECK_CONNECTION}
        error={profile.error ?? consent.error ?? logs.error}
        retrying={profile.isFetching || consent.isFetching || logs.isFetching}
        onRetry={() => {
          if (profile.isError) void profile.refetch();
          if (consent.isError) void consent.refetch();
          if (needList && logs.isError) void logs.refetch();
        }}
      />,
    );
  }
  if (!consent.data.hasConsent) return <Navigate to={paths.sleep.consent} replace />;

  const { timezone } = profile.data;
  const today = calendarDateIn(timezone, now);
  const lastEnded = lastEndedNight(timezone, now);
  const studyStartDate = profile.data.studyStartDate ?? consent.data.studyStartDate;
  const fromList = needList ? logs.data?.find((log) => log.id === editId)?.date : undefined;
  const initialDate = validDate ?? fromList ?? defaultLogNight(timezone, openedAt, studyStartDate);
  // An edit link to a night that is not hers (or no longer there): say so, and open the default night.
  const missing = needList && fromList === undefined;

  return wrap(
    <>
      {missing ? (
        <p role="alert" className="flex items-start gap-2 rounded-2xl border border-rose-200 bg-rose-50 p-4 text-base text-rose-900">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <span>
            That sleep log was not found.{' '}
            <span className="text-night-800">
              {/* on the day she joined no night of her study has ended: the form opens on her first */}
              The form below shows {initialDate > lastEnded ? 'your first night' : 'the night that just ended'}.
            </span>
          </span>
        </p>
      ) : null}
      <SleepLogFormInAddress
        today={today}
        lastEnded={lastEnded}
        timezone={timezone}
        studyStartDate={studyStartDate}
        initialDate={initialDate}
        defaultNight={defaultLogNight(timezone, now, studyStartDate)}
      />
    </>,
  );
}
