import { z } from 'zod';

/**
 * The sleep study protocol: one versioned definition that drives the phase engine (the
 * service stores each night's study day and phase from it, the web shows the banner and
 * guidance from it) and the consent page (its protocol, routine, room and bed text, and
 * the consent text the service records). Pure: no I/O, no clock; time comes in as
 * arguments. How the spec's two readings of the study were resolved: docs/study-protocol.md.
 */

/** docs/product.md §3 enumeration sleepwear_material. */
export const SleepwearMaterial = z.enum(['100% Cotton', '100% Polyester', '100% Linen']);
export type SleepwearMaterial = z.infer<typeof SleepwearMaterial>;
export const SLEEPWEAR_MATERIALS = SleepwearMaterial.options;

/** The phase a night belongs to; `completed` is every night after the last phase. */
export const StudyPhase = z.enum(['polyester', 'washout', 'linen', 'completed']);
export type StudyPhase = z.infer<typeof StudyPhase>;

/**
 * The colour of each phase, the same on the screens' charts and in the exports' (until
 * 2026-12-07 the PDF shaded polyester pink and the screens lavender): `shade` behind a
 * phase's nights and as its legend's swatch, `ink` for its name written on the shade (at
 * least 7:1 against it).
 */
export const PHASE_COLOURS: Record<StudyPhase, { shade: string; ink: string }> = {
  polyester: { shade: '#eeebfb', ink: '#4a3b8f' },
  washout: { shade: '#f7efdf', ink: '#6b4a12' },
  linen: { shade: '#e4f3ea', ink: '#1d5a36' },
  completed: { shade: '#f1f1f4', ink: '#3d3d4d' },
};

export interface PhaseDefinition {
  id: Exclude<StudyPhase, 'completed'>;
  /** 'Polyester', as the banner's steps and messages name it. */
  name: string;
  nights: number;
  /** What she wears during the phase (the form's default and its mismatch check). */
  material: SleepwearMaterial;
  /** docs/product.md §4's phase message; `{day}` and `{days}` are filled in. */
  message: string;
  /**
   * The message for the last night of the phase (docs/product.md §4's, worded so that it
   * and the phase message give one instruction for that night: docs/study-protocol.md).
   */
  transitionMessage: string;
  /**
   * The same, read the morning after that night (docs/product.md §4's own words, which are
   * right then): the log opens on the night that just ended (docs/study-protocol.md).
   */
  transitionMessageAfter: string;
  /** The consent page's description of the phase. */
  description: string;
}

export interface StudyProtocol {
  version: string;
  title: string;
  intro: string;
  phases: readonly PhaseDefinition[];
  completed: { banner: string; material: SleepwearMaterial; message: string };
  /** Every night of the study. */
  general: readonly string[];
  routine: readonly string[];
  room: readonly string[];
  bed: readonly string[];
  recorded: { automatic: readonly string[]; manual: readonly string[] };
  /** The statement next to the consent checkbox. */
  agreement: string;
}

const PROTOCOL_1_0: StudyProtocol = {
  version: '1.0',
  title: 'Sleep Study Consent',
  intro:
    'This 42-day study compares how you sleep in three kinds of sleepwear. You sleep 14 nights in each phase, wear your sleep ring every night and log each night here.',
  phases: [
    {
      id: 'polyester',
      name: 'Polyester',
      nights: 14,
      material: '100% Polyester',
      message: 'Phase: Polyester (Day {day} of {days}) — Tonight, please wear your polyester pyjamas.',
      transitionMessage: 'Tonight completes your 14 nights in polyester. Great work! Tomorrow night, begin your washout phase with cotton.',
      transitionMessageAfter: "You've completed 14 nights in polyester. Great work! Tonight, begin your washout phase with cotton.",
      description: 'Wear your 100% polyester pyjamas every night.',
    },
    {
      id: 'washout',
      name: 'Washout',
      nights: 14,
      material: '100% Cotton',
      message: 'Phase: Washout (Day {day} of {days}) — Tonight, wear cotton sleepwear to reset your baseline.',
      transitionMessage: 'Tonight completes your washout. Tomorrow night, move into the linen phase for the final stretch.',
      transitionMessageAfter: 'Your washout is complete. Tonight, move into the linen phase for the final stretch.',
      description:
        'Wear 100% cotton sleepwear every night. This is the reset: your body and your wearable settle back to your own baseline before the linen phase.',
    },
    {
      id: 'linen',
      name: 'Linen',
      nights: 14,
      material: '100% Linen',
      message: 'Phase: Linen (Day {day} of {days}) — Tonight, switch to your linen pyjamas.',
      transitionMessage: 'Congratulations! Tonight completes all study phases. Thank you for your dedication and valuable contribution.',
      transitionMessageAfter:
        "Congratulations! You've completed all study phases. Thank you for your dedication and valuable contribution.",
      description: 'Wear your 100% linen pyjamas every night.',
    },
  ],
  completed: {
    banner: 'Study Complete',
    material: '100% Cotton',
    message: 'Study Complete — Thank you for completing the 42-day sleep study!',
  },
  general: ['Wear your sleep ring every night.', 'Log each night in the sleep log: the ring’s readings and how you felt.'],
  routine: [
    'Go to bed at 10:00 PM.',
    'Do a 2-minute breathing exercise before sleep.',
    'Finish dinner before 6:00 PM.',
    'Have one coffee a day, at 1:00 PM.',
    'Drink at most 100 ml of red wine.',
    'Keep evening light low: dim lamps and screens.',
    'Get 10 minutes of morning light.',
  ],
  room: ['Keep your bedroom at 21-23°C.'],
  bed: ['Sleep on a cotton sheet, with a duvet insert and cover.'],
  recorded: {
    automatic: [
      'Sleep score',
      'REM sleep',
      'Deep sleep',
      'Sleep efficiency',
      'Time to fall asleep',
      'Resting heart rate',
      'Heart rate variability (HRV)',
    ],
    manual: ['Sleep quality (1-10)', 'Fabric comfort', 'Emotional calm', 'Dream recall', 'Notes on hot flashes, emotions and mood'],
  },
  agreement:
    'I have read the study protocol and agree to take part in the 42-day sleep study, following the routine above, and to the sleep data I record being used for this research.',
};

/** Every protocol version ever consented to, by version. A new text gets a new version. */
export const STUDY_PROTOCOLS: Readonly<Record<string, StudyProtocol>> = { '1.0': PROTOCOL_1_0 };
export const CURRENT_PROTOCOL_VERSION = '1.0';
export const CURRENT_PROTOCOL: StudyProtocol = PROTOCOL_1_0;
/** docs/product.md §9: the default consent version. */
export const DEFAULT_CONSENT_VERSION = '1.0';
export const ConsentVersion = z.enum(Object.keys(STUDY_PROTOCOLS) as [string, ...string[]], {
  error: 'Unknown consent version',
});

export function studyLength(protocol: StudyProtocol = CURRENT_PROTOCOL): number {
  return protocol.phases.reduce((sum, phase) => sum + phase.nights, 0);
}

/** First and last study day of each phase: polyester 1-14, washout 15-28, linen 29-42. */
export function phaseRanges(protocol: StudyProtocol = CURRENT_PROTOCOL): { phase: PhaseDefinition; first: number; last: number }[] {
  let first = 1;
  return protocol.phases.map((phase) => {
    const range = { phase, first, last: first + phase.nights - 1 };
    first += phase.nights;
    return range;
  });
}

/**
 * The consent text the service records with a consent: the same words the consent page
 * shows for this version.
 */
export function consentText(protocol: StudyProtocol = CURRENT_PROTOCOL): string {
  const list = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');
  const phases = phaseRanges(protocol)
    .map(({ phase, first, last }) => `- Nights ${first}-${last}, ${phase.name} (${phase.material}): ${phase.description}`)
    .join('\n');
  return [
    `${protocol.title} (version ${protocol.version})`,
    protocol.intro,
    `Study protocol:\n${phases}\n${list(protocol.general)}`,
    `Daily routine:\n${list(protocol.routine)}`,
    `Room:\n${list(protocol.room)}`,
    `Bed set-up:\n${list(protocol.bed)}`,
    `Recorded automatically by your ring:\n${list(protocol.recorded.automatic)}`,
    `Recorded by you:\n${list(protocol.recorded.manual)}`,
    protocol.agreement,
  ].join('\n\n');
}

// ---------------------------------------------------------------------------------------
// Calendar dates in the participant's timezone

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function toUtcMillis(date: string): number {
  const match = DATE.exec(date);
  if (!match) throw new Error(`Not a calendar date: ${date}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

function fromUtcMillis(millis: number): string {
  return new Date(millis).toISOString().slice(0, 10);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** The calendar date (YYYY-MM-DD) it is at `instant` in the IANA `timeZone`. */
export function calendarDateIn(timeZone: string, instant: Date): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  // en-US writes these options as MM/DD/YYYY: read back from the string, a quarter of
  // formatToParts' cost (an object a part); the parts only if a runtime wrote it otherwise.
  const us = US_DATE.exec(formatter.format(instant));
  if (us) return `${us[3]}-${us[1]}-${us[2]}`;
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** `date` plus `days` calendar days (negative to go back). */
export function addDays(date: string, days: number): string {
  return fromUtcMillis(toUtcMillis(date) + days * 86_400_000);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMillis(to) - toUtcMillis(from)) / 86_400_000);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far the wall clock of `timeZone` is ahead of UTC at `instant` (ms since the epoch), in ms (negative west of Greenwich). */
export function utcOffsetMs(timeZone: string, instant: number): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant (ms since the epoch) the wall clock of `timeZone` shows `minutes` after the
 * midnight that begins `date`: the first instant it shows that time or later. So a time the
 * clocks skip (spring forward) is read with the offset before the change, an hour later than
 * written where they skip an hour, and a time that comes twice (fall back) is its first
 * (as Temporal's "compatible" disambiguation). The offset a day before and a day after are
 * the same unless the clocks change in between (once at most); then the earlier reading
 * whose clock shows the time is the one.
 */
export function instantAt(timeZone: string, date: string, minutes: number): number {
  const wall = toUtcMillis(date) + minutes * 60_000;
  const before = utcOffsetMs(timeZone, wall - 86_400_000);
  const after = utcOffsetMs(timeZone, wall + 86_400_000);
  if (before === after) return wall - before;
  const [early, late] = [wall - Math.max(before, after), wall - Math.min(before, after)];
  return early + utcOffsetMs(timeZone, early) >= wall ? early : late;
}

/**
 * docs/product.md §4: the study day of a calendar date = whole days from the start date to it,
 * plus 1 (the start date is day 1). null without a start date. Dates are calendar dates
 * in her timezone, so midnight and DST changes cannot shift a night to another day.
 */
export function studyDayOf(studyStartDate: string | null, date: string): number | null {
  if (studyStartDate === null) return null;
  return daysBetween(studyStartDate, date) + 1;
}

// ---------------------------------------------------------------------------------------
// The phase engine

export interface StudyStatus {
  /** The study day as computed (null: no start date; 0 or less: before the start). */
  day: number | null;
  /** False without a start date or before it: shown as polyester day 1 (docs/product.md §4). */
  started: boolean;
  phase: StudyPhase;
  /** 'Polyester', 'Washout', 'Linen' or 'Study Complete'. */
  phaseName: string;
  /** Day within the phase (day - 14 in washout ...); null once completed. */
  dayInPhase: number | null;
  daysInPhase: number | null;
  recommendedMaterial: SleepwearMaterial;
  /** The Study Guidance message. */
  message: string;
  /** The Phase Transition message on a phase's last day, else null. */
  transition: string | null;
  completed: boolean;
  /** The banner text: 'Polyester - Day 3 of 14' or 'Study Complete'. */
  banner: string;
}

function fill(template: string, values: Record<string, number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** docs/product.md §4: phase, day in phase, recommended material, messages for a study day. */
export function studyStatus(day: number | null, protocol: StudyProtocol = CURRENT_PROTOCOL): StudyStatus {
  const started = day !== null && day >= 1;
  // No start date (or a day before it) is treated as polyester day 1.
  const effective = started ? day : 1;
  for (const { phase, first, last } of phaseRanges(protocol)) {
    if (effective <= last) {
      const dayInPhase = effective - first + 1;
      return {
        day,
        started,
        phase: phase.id,
        phaseName: phase.name,
        dayInPhase,
        daysInPhase: phase.nights,
        recommendedMaterial: phase.material,
        message: fill(phase.message, { day: dayInPhase, days: phase.nights }),
        transition: started && effective === last ? phase.transitionMessage : null,
        completed: false,
        banner: `${phase.name} - Day ${dayInPhase} of ${phase.nights}`,
      };
    }
  }
  return {
    day,
    started,
    phase: 'completed',
    phaseName: protocol.completed.banner,
    dayInPhase: null,
    daysInPhase: null,
    recommendedMaterial: protocol.completed.material,
    message: protocol.completed.message,
    transition: null,
    completed: true,
    banner: protocol.completed.banner,
  };
}

/** The status of the night of `date` for a study that started on `studyStartDate`. */
export function studyStatusOn(studyStartDate: string | null, date: string, protocol: StudyProtocol = CURRENT_PROTOCOL): StudyStatus {
  return studyStatus(studyDayOf(studyStartDate, date), protocol);
}

/**
 * When a night shown on the sleep log is, as she reads it: the night she is in or sleeps
 * next (`tonight`), the one that ended last (`last night`), an older one (`earlier`) or one
 * after tonight, logged ahead (`later`).
 */
export type NightWhen = 'tonight' | 'last night' | 'earlier' | 'later';

/**
 * The Study Guidance and Phase Transition texts of the night shown on the sleep log, worded
 * for when she reads them. docs/product.md §4's "Tonight, ..." messages are for tonight; for
 * last night (where the log opens in the morning) they told her, on the morning after night
 * 14, to wear polyester tonight and begin the washout "tomorrow night": a night late. A night
 * that is not tonight says which sleepwear it was for; the morning after a phase's last
 * night, the transition is the spec's own words, which say what tonight is.
 */
export function nightGuidance(
  status: StudyStatus,
  when: NightWhen,
  protocol: StudyProtocol = CURRENT_PROTOCOL,
): { message: string; transition: string | null } {
  if (when === 'tonight' || status.completed) return { message: status.message, transition: status.transition };
  const phase = protocol.phases.find((p) => p.id === status.phase)!;
  const night = when === 'last night' ? 'last night' : 'this night';
  return {
    message: `Phase: ${phase.name} (Day ${status.dayInPhase} of ${phase.nights}) — Sleepwear for ${night}: ${phase.material}.`,
    transition: when === 'last night' && status.transition ? phase.transitionMessageAfter : null,
  };
}

/**
 * docs/product.md §5: the non-blocking warning when the chosen material is not the
 * recommended one; for a night that is not tonight, it asks her to check what she wore
 * (telling her to "update" a night gone by would have her record what she did not wear).
 */
export function materialMismatchMessage(recommended: SleepwearMaterial, when: NightWhen = 'tonight'): string {
  if (when === 'tonight') return `This doesn't match your current phase. Tonight should be ${recommended}. Please update to stay aligned.`;
  if (when === 'later')
    return `This doesn't match the phase of this night, which is for ${recommended}. Please check the date and the sleepwear.`;
  return `This doesn't match the phase of ${when === 'last night' ? 'last night' : 'this night'}, which was for ${recommended}. Please check that this is what you wore.`;
}

/** The latest night she may log: tomorrow in her timezone. */
export function latestLoggableDate(timeZone: string, now: Date): string {
  return addDays(calendarDateIn(timeZone, now), 1);
}

// ---------------------------------------------------------------------------------------
// Nights: which night she is logging (docs/study-protocol.md, "Which night")

/**
 * The night of D runs from the evening of D to the morning of D + 1; it has ended at
 * 04:00 on D + 1, on her wall clock. Until then (awake at 1 am, say) the night she is in
 * has not ended, and the one before it is the last that has.
 */
export const NIGHT_ENDS_AT_HOUR = 4;

/** The calendar date, the hour (0-23) and the minute on the wall clock of the IANA `timeZone` at `instant`. */
export function wallClockIn(timeZone: string, instant: Date): { date: string; hour: number; minute: number; second: number } {
  const wall = new Date(instant.getTime() + utcOffsetMs(timeZone, instant.getTime()));
  return { date: fromUtcMillis(wall.getTime()), hour: wall.getUTCHours(), minute: wall.getUTCMinutes(), second: wall.getUTCSeconds() };
}

/** The night (its evening's date) that ended most recently at `now` in `timeZone`. */
export function lastEndedNight(timeZone: string, now: Date): string {
  const { date, hour } = wallClockIn(timeZone, now);
  return addDays(date, hour < NIGHT_ENDS_AT_HOUR ? -2 : -1);
}

const nightEnds = new Map<string, Map<string, number>>();

/**
 * When the night of `date` ends in `timeZone`, in ms since the epoch: the first instant at
 * which her wall clock shows 04:00 or later on the next day ({@link lastEndedNight} counts
 * it as ended from then on; where the clocks skip 04:00, changing at that hour, the moment
 * of the change). Remembered: a research run asks for it night by night, a few hundred
 * dates per time zone.
 */
export function nightEndTime(timeZone: string, date: string): number {
  let ends = nightEnds.get(timeZone);
  if (!ends) nightEnds.set(timeZone, (ends = new Map()));
  let end = ends.get(date);
  if (end === undefined) {
    end = instantAt(timeZone, addDays(date, 1), NIGHT_ENDS_AT_HOUR * 60);
    if (ends.size > 10_000) ends.clear();
    ends.set(date, end);
  }
  return end;
}

/**
 * A night of hers last saved before it ended (its `updatedAt` before 04:00 on its morning,
 * her wall clock): research leaves it out until she saves it again after it has ended
 * (docs/study-protocol.md, "Dates"); the study service stamps that save even if nothing
 * changed. Judged in `timeZone`, her zone now (the service also asks the zone she logged it in).
 */
export function savedBeforeItEnded(log: { date: string; updatedAt: string }, timeZone: string): boolean {
  return Date.parse(log.updatedAt) < nightEndTime(timeZone, log.date);
}

/** The night she is in, or will sleep next ("tonight"): the one after the last that ended. */
export function currentNight(timeZone: string, now: Date): string {
  return addDays(lastEndedNight(timeZone, now), 1);
}

/**
 * The night the sleep log opens on: the night that just ended, in her timezone; while no
 * night of her study has ended yet (the day she joined), her study's first night.
 */
export function defaultLogNight(timeZone: string, now: Date, studyStartDate: string | null): string {
  const night = lastEndedNight(timeZone, now);
  return studyStartDate !== null && night < studyStartDate ? studyStartDate : night;
}
