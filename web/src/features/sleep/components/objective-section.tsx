import { formatDuration, parseDuration, sleepExceedsBed, stagesExceedSleep, type NightDurations } from '@sleepweave/contracts';
import { CircleAlert } from 'lucide-react';
import { useWatch } from 'react-hook-form';
import { fieldsOf } from './sleep-log-display';
import { SleepLogField, SleepLogSection, type SleepLogControl } from './sleep-log-field';

/** Objective Sleep Data: what her ring recorded. */
export function ObjectiveSection({ control }: { control: SleepLogControl }) {
  return (
    <SleepLogSection
      title="Objective Sleep Data"
      description="From your sleep ring. Type durations as hours and minutes, like 7h32m, 15m or 1h25m. Leave out anything it did not record."
    >
      <div className="grid items-start gap-5 sm:grid-cols-2">
        {fieldsOf('objective').map((key) => (
          <SleepLogField key={key} control={control} name={key} />
        ))}
      </div>
      <DurationsWarning control={control} />
    </SleepLogSection>
  );
}

/** A duration as typed, in minutes; null when empty or not readable (its field says why). */
function minutesOf(typed: string): number | null {
  const parsed = parseDuration(typed);
  return parsed.ok ? parsed.minutes : null;
}

/** What is wrong with a night's durations, in her words; none when they fit together. */
export function durationWarnings(durations: NightDurations): string[] {
  const { totalSleepMinutes: total, timeInBedMinutes: bed, remMinutes: rem, deepMinutes: deep } = durations;
  const warnings: string[] = [];
  if (sleepExceedsBed(durations)) {
    warnings.push(`Total sleep (${formatDuration(total)}) is longer than time in bed (${formatDuration(bed)}).`);
  }
  if (stagesExceedSleep(durations)) {
    warnings.push(`REM and deep sleep together (${formatDuration(rem! + deep!)}) are longer than total sleep (${formatDuration(total)}).`);
  }
  return warnings;
}

/**
 * A non-blocking warning (as the material's): durations that cannot all be right, which the
 * study's analysis leaves out (the research export's quality rules). She may still save: the
 * ring's figures are hers to check, and one may have been typed in the wrong field.
 */
function DurationsWarning({ control }: { control: SleepLogControl }) {
  const [total, bed, rem, deep] = useWatch({ control, name: ['totalSleepMinutes', 'timeInBedMinutes', 'remMinutes', 'deepMinutes'] });
  const warnings = durationWarnings({
    totalSleepMinutes: minutesOf(total),
    timeInBedMinutes: minutesOf(bed),
    remMinutes: minutesOf(rem),
    deepMinutes: minutesOf(deep),
  });
  // (always there, so that a warning is announced when it appears; out of the layout while empty)
  return (
    <div role="status" className={warnings.length > 0 ? undefined : 'sr-only'}>
      {warnings.length > 0 ? (
        <p className="flex items-start gap-2 text-base font-medium text-rose-700">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <span>{warnings.join(' ')} Please check them: the study leaves out durations that do not fit together.</span>
        </p>
      ) : null}
    </div>
  );
}
