import { addDays, type SleepLog } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { CircleCheck, Moon, MoonStar, PartyPopper } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { useStudyProgress } from '../hooks/use-study-progress';
import { nightSpan } from './nights';
import { editLink } from './sleep-log-card';
import type { StudyProgress } from './study-progress';

/** The whole study on the charts page (all 42 nights). */
export const wholeStudyLink = `${paths.sleep.charts}?view=study`;
const logNightLink = (date: string) => `${paths.sleep.log}?date=${date}`;

/**
 * The morning her first night ends, by its day ('Tuesday morning'): not "tomorrow", which,
 * said between midnight and 04:00 (she may join then), reads as the morning a few hours away.
 */
const firstMorning = (firstNight: string) => `${format(parseISO(addDays(firstNight, 1)), 'EEEE')} morning`;

/** The Sleep Study tile of the home page, as it fits where she is. */
export function sleepStudyTile(progress: StudyProgress | null): { description: string; to: string } {
  if (progress?.state === 'in-study') {
    return {
      description: `Day ${progress.day} of 42, ${progress.tonightStatus.phaseName.toLowerCase()} phase: your nights, charts and weekly report.`,
      to: paths.sleep.dashboard,
    };
  }
  if (progress?.state === 'complete') {
    return {
      description: 'You completed the 42-night study. Look back at your nights and how you slept in each fabric.',
      to: paths.sleep.dashboard,
    };
  }
  return { description: 'Take part in the 42-day sleepwear study and log how you sleep each night.', to: paths.sleep.consent };
}

export function useSleepStudyTile(): { description: string; to: string } {
  const query = useStudyProgress();
  return sleepStudyTile(query.status === 'success' ? query.progress : null);
}

/**
 * The home page's "where am I" card for a participant: phase and day, tonight's material,
 * nights logged, and whether last night is logged (one tap to log it). Nothing before she
 * joins (the Sleep Study tile invites her).
 */
export function StudyTodayCard() {
  const query = useStudyProgress();
  if (query.status === 'pending') return <LoadingState inline text="Loading your study..." className="py-2" />;
  if (query.status === 'error') {
    return <ErrorState inline text="Your study could not be loaded." error={query.error} onRetry={query.retry} retrying={query.retrying} />;
  }
  const { progress } = query;
  if (progress.state === 'not-joined') return null;

  if (progress.state === 'complete') {
    return (
      <section aria-labelledby="study-today">
        <Card className="grid gap-4 p-6 sm:p-7">
          <h2 id="study-today" className="flex items-center gap-2 text-xl font-semibold text-night-950">
            <PartyPopper aria-hidden="true" className="size-6 shrink-0 text-sand-700" />
            Study Complete
          </h2>
          <p className="text-base text-night-800">
            Thank you for completing the 42-day sleep study! You logged {progress.nightsLogged} of {progress.nights} nights.
          </p>
          {progress.lastStudyNightToLog ? <LogLastNight date={progress.lastStudyNightToLog} /> : null}
          {progress.lastStudyNightToSaveAgain ? <SaveLastNightAgain log={progress.lastStudyNightToSaveAgain} /> : null}
          <MissedNights dates={progress.missedNights} />
          <div>
            <Button asChild>
              <Link to={wholeStudyLink}>See all 42 nights</Link>
            </Button>
          </div>
        </Card>
      </section>
    );
  }

  const {
    tonight,
    tonightIsTomorrow,
    tonightLog,
    tonightStatus: status,
    day,
    nightsLogged,
    nightsEnded,
    nightsAhead,
    missedNights,
    lastNight,
  } = progress;
  // the nights she logged ahead, so that the count agrees with her dashboard's entries
  const ahead = nightsAhead > 0 ? `, ${nightsAhead} logged ahead` : '';
  const tonightName = tonightIsTomorrow ? 'Tomorrow night' : 'Tonight';
  return (
    <section aria-labelledby="study-today">
      <Card className="grid gap-5 p-6 sm:p-7">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h2 id="study-today" className="text-xl font-semibold text-night-950">
            Your sleep study
          </h2>
          <p className="text-base font-medium text-night-700">Day {day} of 42</p>
        </div>

        <dl className="grid gap-4 sm:grid-cols-3">
          <div className="grid gap-0.5 rounded-2xl bg-night-50 p-4">
            <dt className="text-sm text-night-700">Phase</dt>
            <dd className="text-lg font-semibold text-night-950">{status.banner}</dd>
          </div>
          <div className="grid gap-0.5 rounded-2xl bg-night-50 p-4">
            <dt className="text-sm text-night-700">
              {tonightName} · {nightSpan(tonight)}
            </dt>
            <dd className="flex items-center gap-2 text-lg font-semibold text-night-950">
              <MoonStar aria-hidden="true" className="size-5 shrink-0 text-night-600" />
              {status.recommendedMaterial}
            </dd>
          </div>
          <div className="grid gap-0.5 rounded-2xl bg-night-50 p-4">
            <dt className="text-sm text-night-700">Nights logged</dt>
            <dd className="text-lg font-semibold text-night-950">
              {nightsEnded > 0
                ? `${nightsLogged} of ${nightsEnded} so far${ahead}`
                : `Your first night is ${tonightName.toLowerCase()}${ahead}`}
            </dd>
          </div>
        </dl>
        {status.transition ? <p className="rounded-2xl bg-emerald-50 p-4 text-base text-emerald-900">{status.transition}</p> : null}

        {lastNight ? (
          lastNight.log && lastNight.saveAgain ? (
            <SaveLastNightAgain log={lastNight.log} />
          ) : lastNight.log ? (
            <LoggedNight log={lastNight.log}>Last night ({nightSpan(lastNight.date)}) is logged.</LoggedNight>
          ) : (
            <LogLastNight date={lastNight.date} />
          )
        ) : tonightLog ? (
          <LoggedNight log={tonightLog}>
            Your first night ({nightSpan(tonight)}) is logged already: save it again when you wake up on {firstMorning(tonight)}, as the
            study counts a night saved once it has ended.
          </LoggedNight>
        ) : (
          <p className="text-base text-night-800">Log your first night when you wake up on {firstMorning(tonight)}.</p>
        )}
        <MissedNights dates={missedNights} />
      </Card>
    </section>
  );
}

/** How many missed nights the card names; the rest are counted. */
const MISSED_NIGHTS_SHOWN = 3;

/**
 * Earlier nights of her study she has not logged, the newest first, each a link to log it:
 * she can still log them (research keeps a night logged late, with a flag). Only last night
 * was ever offered; a night missed before it, or night 42 a day after, was named nowhere.
 */
function MissedNights({ dates }: { dates: string[] }) {
  if (dates.length === 0) return null;
  const shown = dates.slice(0, MISSED_NIGHTS_SHOWN);
  const more = dates.length - shown.length;
  return (
    <div className="grid gap-2 text-base text-night-800">
      <p>
        {dates.length === 1
          ? 'An earlier night is not logged yet. You can still log it:'
          : 'Earlier nights not logged yet. You can still log them:'}
      </p>
      <ul className="flex flex-wrap items-center gap-x-4">
        {shown.map((date) => (
          <li key={date}>
            {/* 44 px tall to touch: the card's main action when she missed nights (it was 19 px) */}
            <Link
              to={logNightLink(date)}
              className="inline-flex min-h-11 items-center font-medium text-night-700 underline underline-offset-4 hover:text-night-900"
            >
              {nightSpan(date)}
            </Link>
          </li>
        ))}
        {more > 0 ? <li>and {more} more</li> : null}
      </ul>
    </div>
  );
}

/** Last night, not logged yet: one tap to log it. */
function LogLastNight({ date }: { date: string }) {
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-sand-200 bg-sand-50 p-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-center gap-2 text-base text-night-900">
        <Moon aria-hidden="true" className="size-5 shrink-0 text-sand-700" />
        Last night ({nightSpan(date)}) is not logged yet.
      </p>
      <Button asChild>
        <Link to={logNightLink(date)}>Log last night</Link>
      </Button>
    </div>
  );
}

/**
 * Last night, saved before it ended (logged ahead, or at 1 am): research leaves it out
 * until she saves it again now that it has ended, changed or not (docs/study-protocol.md).
 */
function SaveLastNightAgain({ log }: { log: SleepLog }) {
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-sand-200 bg-sand-50 p-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-2 text-base text-night-900">
        <Moon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-sand-700" />
        <span>
          Last night ({nightSpan(log.date)}) was saved before it ended, so the study does not count it yet. Check it and save it again.
        </span>
      </p>
      <Button asChild>
        <Link to={editLink(log)}>Save last night again</Link>
      </Button>
    </div>
  );
}

/** A night she logged: what the card says of it, and a link to it. */
function LoggedNight({ log, children }: { log: SleepLog; children: ReactNode }) {
  return (
    <p className="flex items-start gap-2 text-base text-night-800">
      <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
      <span>
        {children}{' '}
        <Link to={editLink(log)} className="font-medium whitespace-nowrap text-night-700 underline underline-offset-4 hover:text-night-900">
          View or edit it
        </Link>
      </span>
    </p>
  );
}
