import { addDays, calendarDateIn, currentNight, instantAt, nightEndTime, TIMEZONE_OPTIONS } from '@sleepweave/contracts';
import { Globe } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useUser } from '../../../lib/auth';
import { keepChoice, keptChoice } from '../../../lib/device-choices';
import { focusOn, pageHeading } from '../../../lib/focus';

/**
 * Every date of hers is read in her profile's time zone: when a night ends (04:00), which
 * day a journal entry is of, what "today" is. Sign-up offers six zones and starts on New
 * York (docs/product.md §9), so someone elsewhere, or who has moved, may have a zone that is
 * not where she is, and log each night against another clock without knowing it. This
 * notice says so when this device's clock differs from her zone's now; she changes it in
 * Settings, or keeps it, and is not asked again for that pair of zones on this device
 * (lib/device-choices.ts: hers only, dropped when she signs out).
 */

/** The zone's offset from UTC at `now` ('GMT-05:00'); null for a zone this browser does not know. */
export function offsetIn(timeZone: string, now: Date): string | null {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(now);
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? null;
  } catch {
    return null;
  }
}

/** This device's zone, as the browser reports it (undefined when it reports none). */
export function deviceTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** Whether a device in `device` shows another time than her profile's `profile` zone at `now`. */
export function clocksDiffer(profile: string, device: string | undefined, now: Date): boolean {
  if (!device || device === profile) return false;
  const ours = offsetIn(profile, now);
  const theirs = offsetIn(device, now);
  return ours !== null && theirs !== null && ours !== theirs;
}

/** `instant` as this device's clock shows it ('2:45 PM'). */
const timeOn = (device: string, instant: number) =>
  new Intl.DateTimeFormat('en-US', { timeZone: device, hour: 'numeric', minute: '2-digit' }).format(instant);

/** When the night in progress ends (04:00) in `zone`, on this device's clock. */
const nightEndsOn = (zone: string, device: string, now: Date) => timeOn(device, nightEndTime(zone, currentNight(zone, now)));

/**
 * When her night and her journal day next end, on this device's clock: the profile's 04:00
 * and midnight are another hour here (a tester in Kathmandu, on New York, logged at 06:30
 * her time, before her night had ended at 14:45, and filed it under the night before).
 */
export function endsOnDevice(profile: string, device: string, now: Date): { night: string; day: string } {
  const midnight = instantAt(profile, addDays(calendarDateIn(profile, now), 1), 0);
  return { night: nightEndsOn(profile, device, now), day: timeOn(device, midnight) };
}

/** Each zone the study offers, with when its 04:00 next comes on this device's clock. */
export function studyZonesOnDevice(device: string, now: Date): { label: string; nightEnds: string }[] {
  return TIMEZONE_OPTIONS.map(({ value, label }) => ({ label, nightEnds: nightEndsOn(value, device, now) }));
}

const isStudyZone = (zone: string) => TIMEZONE_OPTIONS.some((option) => option.value === zone);

/** The pair of zones she chose to keep her profile's on: asked again when either differs (she travels on). */
const keptPair = (profile: string, device: string) => `${profile} ${device}`;
const CHOICE = 'timezone-kept';

const zoneLabel = (zone: string) => TIMEZONE_OPTIONS.find((option) => option.value === zone)?.label ?? zone;

export function TimezoneNotice({
  now = new Date(),
  device = deviceTimeZone(),
  className = '',
}: {
  now?: Date;
  device?: string | undefined;
  className?: string;
}) {
  const { data: user } = useUser();
  const [kept, setKept] = useState(false);
  if (!user || !device || kept || !clocksDiffer(user.timezone, device, now)) return null;
  if (keptChoice(user.id, CHOICE) === keptPair(user.timezone, device)) return null;
  const label = zoneLabel(user.timezone);
  const ends = endsOnDevice(user.timezone, device, now);
  return (
    <section
      aria-labelledby="timezone-notice"
      className={`grid gap-3 rounded-2xl border border-sand-200 bg-sand-50 p-4 text-base text-night-900 sm:p-5 ${className}`}
    >
      <h2 id="timezone-notice" className="flex items-center gap-2 font-semibold">
        <Globe aria-hidden="true" className="size-5 shrink-0 text-sand-700" />
        Is your time zone right?
      </h2>
      <p>
        Your profile is set to {label}, but this device is on another clock ({device}). Your nights end at 04:00, and your journal days at
        midnight, in your profile&apos;s time zone: on this device&apos;s clock, your night ends at {ends.night} and your journal day at{' '}
        {ends.day}. Log each night once it has ended.
      </p>
      {isStudyZone(device) ? null : (
        <div className="grid gap-2">
          <p>
            The study offers six time zones, and this device&apos;s is not one of them. Choose the one whose 04:00 comes after you wake up
            and before you go to bed. On this device&apos;s clock, 04:00 in each is:
          </p>
          <ul className="grid gap-1 sm:grid-cols-2">
            {studyZonesOnDevice(device, now).map((zone) => (
              <li key={zone.label}>
                {zone.label}: <span className="font-semibold whitespace-nowrap">{zone.nightEnds}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button asChild>
          <Link to={paths.settings}>Change it in Settings</Link>
        </Button>
        {/* a zone's name is one long word ("(America/New_York)"): broken rather than widen a phone's page at 200% text */}
        <Button
          variant="outline"
          className="max-w-full wrap-anywhere"
          onClick={() => {
            keepChoice(user.id, CHOICE, keptPair(user.timezone, device));
            setKept(true);
            // the notice goes with the button that had the focus: to the page's heading, not the page's end
            const heading = pageHeading();
            if (heading) focusOn(heading);
          }}
        >
          Keep {label}
        </Button>
      </div>
    </section>
  );
}
