import {
  addDays,
  calendarDateIn,
  DEMO_EMAIL_DOMAIN,
  instantAt,
  lastEndedNight,
  studyStatusOn,
  type FabricComfort,
  type HormonalStage,
  type Mood,
  type SleepLogValues,
  type SleepwearMaterial,
  type StudyPhase,
  type Timezone,
} from '@sleepweave/contracts';
import { createRandom, type Random } from './random.ts';
import { AFFIRMATIONS, FIRST_NAMES, FORGIVENESS, GRATITUDE, LAST_NAMES, NIGHT_NOTES, THREADS, WELCOME_MESSAGES } from './texts.ts';

/**
 * The demo cohort, generated: who the participants are, where each is in the study, every
 * night's values with their imperfections, journal entries and community threads. Pure and
 * seeded: the same seed and `now` give the same cohort, and participant n is the same person
 * whatever the cohort's size (each draws from a stream of her own). Nothing here writes:
 * `seed.ts` sends it through the services' own commands. The model, the built-in fabric
 * effect and the imperfection rates are documented in docs/demo.md.
 */

/** The shared password of every demo account (printed by `npm run demo`, in the README). */
export const DEMO_PASSWORD = 'linen-dreams-42';
export const DEMO_ADMIN_EMAIL = `admin@${DEMO_EMAIL_DOMAIN}`;

export type DemoStage = 'not_consented' | 'polyester' | 'washout' | 'linen' | 'completed';
export const DEMO_STAGES: readonly DemoStage[] = ['not_consented', 'polyester', 'washout', 'linen', 'completed'];

/**
 * The built-in fabric effect, linen against polyester, per participant: her own effect is
 * drawn around the mean with the person-to-person SD. Cotton (washout) has `washoutShare`
 * of it. It acts on the fabric she actually wore that night.
 */
export const FABRIC_EFFECT = {
  /** Sleep score points. */
  sleepScore: { mean: 3, personSd: 2 },
  /** Average HRV, ms. */
  avgHrv: { mean: 2.5, personSd: 2 },
  /** Resting heart rate, bpm. */
  restingHr: { mean: -1.2, personSd: 1 },
  /** Heat wake-ups: the rate in linen as a share of the rate in polyester. */
  heatWakeupsRatio: { mean: 0.7, personSd: 0.1 },
  washoutShare: 0.4,
} as const;

/** Imperfections, per logged night unless said otherwise (docs/demo.md). */
export const IMPERFECTION_RATES = {
  /** Share of participants by how often they miss a night: [share, chance of missing a night]. */
  adherence: [
    [0.7, 0.04],
    [0.22, 0.12],
    [0.08, 0.45],
  ],
  /** The ring was not worn or not charged: every ring field empty. */
  ringMissing: 0.02,
  /** She wore another material than the phase's. */
  materialMismatch: 0.025,
  /** The ring reported more sleep than time in bed. */
  sleepExceedsBed: 0.007,
  /** REM plus deep longer than total sleep. */
  stagesExceedSleep: 0.007,
  /** Sleep efficiency off by 8-15 points from sleep / bed. */
  efficiencyInconsistent: 0.01,
  /** Recorded 4-9 days after the night. */
  recordedLate: 0.03,
  /** Changed after it was recorded (a rating corrected). */
  revised: 0.04,
  /** Completed participants who keep logging 1-6 nights after day 42 (per participant). */
  afterStudy: 0.3,
} as const;

/** How often participants write in the journal (each has one of these chances an evening). */
export const JOURNAL_RATES = [0.03, 0.08, 0.15, 0.4] as const;

/** Where the cohort's participants are, cycling through these 20 slots (after the showcase accounts). */
const STAGE_PATTERN: readonly DemoStage[] = [
  'completed', 'linen', 'washout', 'completed', 'polyester',
  'completed', 'linen', 'washout', 'not_consented', 'completed',
  'linen', 'washout', 'completed', 'polyester', 'completed',
  'linen', 'washout', 'not_consented', 'completed', 'polyester',
]; // prettier-ignore

/** Study days (today's) per stage. */
const STAGE_DAYS: Record<Exclude<DemoStage, 'not_consented'>, [number, number]> = {
  polyester: [2, 14],
  washout: [15, 28],
  linen: [29, 42],
  completed: [43, 70],
};

/** The first participants: one to sign in as for each part of the study. */
export const SHOWCASE = [
  { local: 'day20', stage: 'washout', day: 20, description: 'mid washout, day 20, every night logged' },
  { local: 'completed', stage: 'completed', day: 50, description: 'completed the 42 days' },
  { local: 'day38', stage: 'linen', day: 38, description: 'late linen, day 38' },
  { local: 'day5', stage: 'polyester', day: 5, description: 'early polyester, day 5' },
  { local: 'new', stage: 'not_consented', day: null, description: 'registered, not yet consented' },
] as const satisfies readonly { local: string; stage: DemoStage; day: number | null; description: string }[];

export type Imperfection =
  | 'ring_missing'
  | 'material_mismatch'
  | 'sleep_exceeds_bed'
  | 'stages_exceed_sleep'
  | 'efficiency_inconsistent'
  | 'recorded_late'
  | 'revised';

export interface DemoNight {
  date: string;
  studyDay: number;
  phase: StudyPhase;
  /** What she wore (the phase's material unless `material_mismatch`). */
  material: SleepwearMaterial;
  values: SleepLogValues;
  recordedAt: Date;
  /** A later change of the night: the whole night as it is after it. */
  revision: { values: SleepLogValues; at: Date } | null;
  imperfections: Imperfection[];
}

export interface DemoJournalEntry {
  at: Date;
  affirmation: string;
  gratitude: string;
  forgiveness: string;
}

export interface DemoAccount {
  /** 1-based; 0 is the admin. */
  index: number;
  email: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  timezone: Timezone;
  hormonalStage: HormonalStage | null;
  registeredAt: Date;
}

/** Her own fabric effect and baselines (what the nights were drawn from). */
export interface PersonModel {
  missRate: number;
  baseline: { sleepScore: number; avgHrv: number; restingHr: number; heatWakeups: number };
  effect: { sleepScore: number; avgHrv: number; restingHr: number; heatWakeupsRatio: number };
}

export interface DemoParticipant extends DemoAccount {
  stage: DemoStage;
  /** Her study day today (day 1 = the day she consented); null before consent. */
  studyDay: number | null;
  /** Set for the showcase accounts. */
  showcase: string | null;
  consentAt: Date | null;
  studyStartDate: string | null;
  model: PersonModel;
  nights: DemoNight[];
  journal: DemoJournalEntry[];
}

export interface DemoMessage {
  /** The author's index. */
  author: number;
  body: string;
  at: Date;
}

export interface DemoThread {
  /** null: the pinned welcome thread, which exists already. */
  name: string | null;
  creator: number | null;
  createdAt: Date | null;
  messages: DemoMessage[];
}

export interface DemoCohort {
  seed: string;
  now: Date;
  admin: DemoAccount;
  participants: DemoParticipant[];
  threads: DemoThread[];
}

export interface CohortOptions {
  participants: number;
  seed: string;
  /** The real time the demo is made: today is day N for a day-N participant; nothing is later. */
  now: Date;
}

const TIMEZONES: readonly Timezone[] = [
  'America/New_York',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/London',
  'Europe/Paris',
];
const HORMONAL_STAGES: readonly HormonalStage[] = [
  'Perimenopause',
  'Perimenopause',
  'Perimenopause',
  'Menopause',
  'Menopause',
  'Menopause',
  'Post menopause',
  'Post menopause',
  'Fertile',
];

const MINUTE = 60_000;
const DAY = 86_400_000;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round1 = (value: number) => Math.round(value * 10) / 10;
const earliest = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

function weighted<T>(random: Random, options: readonly (readonly [T, number])[]): T {
  let u = random.uniform() * options.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [value, weight] of options) {
    u -= weight;
    if (u < 0) return value;
  }
  return options[options.length - 1]![0];
}

const MATERIAL: Record<'polyester' | 'cotton' | 'linen', SleepwearMaterial> = {
  polyester: '100% Polyester',
  cotton: '100% Cotton',
  linen: '100% Linen',
};
const fabricOf = (material: SleepwearMaterial) =>
  material === '100% Linen' ? 'linen' : material === '100% Cotton' ? 'cotton' : ('polyester' as const);

const COMFORT: Record<'polyester' | 'cotton' | 'linen', readonly (readonly [FabricComfort, number])[]> = {
  polyester: [
    ['Very Comfortable', 0.05],
    ['Comfortable', 0.25],
    ['Neutral', 0.4],
    ['Uncomfortable', 0.3],
  ],
  cotton: [
    ['Very Comfortable', 0.2],
    ['Comfortable', 0.5],
    ['Neutral', 0.25],
    ['Uncomfortable', 0.05],
  ],
  linen: [
    ['Very Comfortable', 0.35],
    ['Comfortable', 0.45],
    ['Neutral', 0.15],
    ['Uncomfortable', 0.05],
  ],
};

/** Her fixed traits: what every night of hers is drawn around. */
function personModel(random: Random, clean: boolean) {
  const missRate = clean
    ? 0
    : weighted(
        random,
        IMPERFECTION_RATES.adherence.map(([share, rate]) => [rate, share] as const),
      );
  const sleepScore = clamp(random.normal(72, 7), 50, 90);
  const base = {
    sleepScore,
    totalSleep: clamp(random.normal(400, 35), 300, 500),
    efficiency: clamp(random.normal(86, 4), 75, 95),
    latency: clamp(random.normal(16, 6), 5, 40),
    restfulness: clamp(random.normal(70, 8), 45, 90),
    timing: clamp(random.normal(74, 10), 40, 95),
    spo2: clamp(random.normal(95.8, 0.9), 93, 98.5),
    avgHrv: clamp(random.normal(36, 10), 15, 80),
    restingHr: clamp(random.normal(61, 6), 48, 78),
    heatWakeups: clamp(random.normal(1.4, 0.6), 0.2, 3.5),
    calm: clamp(random.normal(6.5, 1.2), 3, 9),
    dream: clamp(random.normal(0.35, 0.15), 0.05, 0.8),
  };
  const effect = {
    sleepScore: random.normal(FABRIC_EFFECT.sleepScore.mean, FABRIC_EFFECT.sleepScore.personSd),
    avgHrv: random.normal(FABRIC_EFFECT.avgHrv.mean, FABRIC_EFFECT.avgHrv.personSd),
    restingHr: random.normal(FABRIC_EFFECT.restingHr.mean, FABRIC_EFFECT.restingHr.personSd),
    heatWakeupsRatio: clamp(random.normal(FABRIC_EFFECT.heatWakeupsRatio.mean, FABRIC_EFFECT.heatWakeupsRatio.personSd), 0.2, 1.2),
  };
  const model: PersonModel = {
    missRate,
    baseline: { sleepScore, avgHrv: base.avgHrv, restingHr: base.restingHr, heatWakeups: base.heatWakeups },
    effect,
  };
  return { base, effect, model };
}
type Person = ReturnType<typeof personModel>;

const RING_FIELDS = [
  'sleepScore',
  'totalSleepMinutes',
  'sleepEfficiency',
  'timeInBedMinutes',
  'restingHr',
  'restfulness',
  'remMinutes',
  'deepMinutes',
  'latencyMinutes',
  'timingScore',
  'avgSpo2',
  'breathingRegularity',
  'lowestHr',
  'avgHrv',
] as const satisfies readonly (keyof SleepLogValues)[];

/** One night's values for the fabric she wore; `imperfections` receives what went wrong with them. */
function nightValues(random: Random, person: Person, material: SleepwearMaterial, clean: boolean, imperfections: Imperfection[]) {
  const { base, effect } = person;
  const fabric = fabricOf(material);
  // How much of her linen effect tonight's fabric has.
  const share = fabric === 'linen' ? 1 : fabric === 'cotton' ? FABRIC_EFFECT.washoutShare : 0;

  const scoreNoise = random.normal(0, 6);
  const sleepScore = Math.round(clamp(base.sleepScore + share * effect.sleepScore + scoreNoise, 30, 99));
  const totalSleep = Math.round(clamp(base.totalSleep + scoreNoise * 2.5 + random.normal(0, 30), 200, 600));
  const efficiencyDrawn = clamp(base.efficiency + scoreNoise * 0.15 + random.normal(0, 3), 65, 98);
  let timeInBed = Math.round(totalSleep / (efficiencyDrawn / 100));
  let sleepEfficiency = round1((100 * totalSleep) / timeInBed);
  let remMinutes = Math.round(totalSleep * clamp(random.normal(0.21, 0.03), 0.1, 0.3));
  const deepMinutes = Math.round(totalSleep * clamp(random.normal(0.16, 0.03), 0.06, 0.26));
  const restingHr = Math.round(clamp(base.restingHr + share * effect.restingHr + random.normal(0, 1.8), 40, 100));
  const lowestHr = restingHr - random.int(2, 6);
  const avgHrv = round1(clamp(base.avgHrv + share * effect.avgHrv + random.normal(0, 4), 5, 200));
  const avgSpo2 = round1(clamp(base.spo2 + random.normal(0, 0.6), 90, 100));
  const breathingRegularity =
    avgSpo2 >= 96
      ? weighted(random, [
          ['Optimal', 0.7],
          ['Good', 0.3],
        ] as const)
      : avgSpo2 >= 94
        ? weighted(random, [
            ['Good', 0.7],
            ['Fair', 0.3],
          ] as const)
        : weighted(random, [
            ['Fair', 0.6],
            ['Pay attention', 0.4],
          ] as const);
  const heatWakeups = Math.min(50, random.poisson(base.heatWakeups * (1 - share * (1 - effect.heatWakeupsRatio))));
  const heatWave = heatWakeups > 0 ? random.chance(0.85) : random.chance(0.05);
  const sleepQuality = Math.round(clamp((sleepScore - 30) / 7 + random.normal(0, 1) - heatWakeups * 0.3, 1, 10));
  const morningMood: Mood =
    sleepQuality >= 8
      ? weighted(random, [
          ['Refreshed', 0.6],
          ['Energetic', 0.4],
        ] as const)
      : sleepQuality >= 6
        ? weighted(random, [
            ['Refreshed', 0.4],
            ['Tired', 0.35],
            ['Groggy', 0.15],
            ['Energetic', 0.1],
          ] as const)
        : weighted(random, [
            ['Tired', 0.6],
            ['Groggy', 0.4],
          ] as const);
  const notes = [...NIGHT_NOTES[fabric], ...NIGHT_NOTES.any];

  const values: SleepLogValues = {
    sleepwearMaterial: material,
    sleepScore,
    totalSleepMinutes: totalSleep,
    sleepEfficiency,
    timeInBedMinutes: timeInBed,
    restingHr,
    restfulness: Math.round(clamp(base.restfulness + scoreNoise * 0.5 + random.normal(0, 5), 10, 100)),
    remMinutes,
    deepMinutes,
    latencyMinutes: Math.round(clamp(base.latency * Math.exp(random.normal(0, 0.4)), 1, 120)),
    timingScore: Math.round(clamp(base.timing + random.normal(0, 8), 10, 100)),
    avgSpo2,
    breathingRegularity,
    lowestHr,
    avgHrv,
    sleepQuality110: sleepQuality,
    restfulnessSelf: Math.round(clamp(sleepQuality + random.normal(0, 1.2), 1, 10)),
    morningMood,
    dreamRecall: random.chance(base.dream),
    fabricComfort: weighted(random, COMFORT[fabric]),
    emotionalCalm: Math.round(clamp(base.calm + (sleepQuality - 6) * 0.3 + random.normal(0, 1.5), 1, 10)),
    heatWave,
    heatWakeups,
    comments: random.chance(0.12) ? random.pick(notes) : null,
  };
  if (clean) return values;

  // What goes wrong, at the documented rates (the draws are made either way, so one rate
  // changing does not reshuffle the rest).
  const ringMissing = random.chance(IMPERFECTION_RATES.ringMissing);
  const exceedsBed = random.chance(IMPERFECTION_RATES.sleepExceedsBed);
  const stagesExceed = random.chance(IMPERFECTION_RATES.stagesExceedSleep);
  const efficiencyOff = random.chance(IMPERFECTION_RATES.efficiencyInconsistent);
  const glitch = random.int(5, 40);
  const offBy = random.int(8, 15) * (random.chance(0.5) ? 1 : -1);
  if (ringMissing) {
    for (const key of RING_FIELDS) (values as Record<string, unknown>)[key] = null;
    values.comments = 'Forgot to charge the ring, no data tonight.';
    imperfections.push('ring_missing');
    return values;
  }
  if (exceedsBed) {
    timeInBed = totalSleep - glitch;
    values.timeInBedMinutes = timeInBed;
    imperfections.push('sleep_exceeds_bed');
  } else if (stagesExceed) {
    remMinutes = totalSleep - deepMinutes + glitch;
    values.remMinutes = remMinutes;
    imperfections.push('stages_exceed_sleep');
  } else if (efficiencyOff) {
    sleepEfficiency = round1(clamp(sleepEfficiency + offBy, 40, 100));
    // near 100 the clamp can undo the change: then it is not inconsistent after all
    if (Math.abs(sleepEfficiency - (100 * totalSleep) / timeInBed) > 5) {
      values.sleepEfficiency = sleepEfficiency;
      imperfections.push('efficiency_inconsistent');
    }
  }
  return values;
}

/** The phase's material, or (a mismatch) another one. */
function wornMaterial(random: Random, recommended: SleepwearMaterial, phase: StudyPhase, clean: boolean): SleepwearMaterial {
  const mismatch = random.chance(IMPERFECTION_RATES.materialMismatch);
  const other = random.pick(Object.values(MATERIAL).filter((m) => m !== recommended));
  if (phase === 'completed') return random.chance(0.5) ? MATERIAL.linen : MATERIAL.cotton;
  return mismatch && !clean ? other : recommended;
}

function journalEntry(random: Random, at: Date): DemoJournalEntry {
  const entry = {
    at,
    affirmation: random.chance(0.9) ? random.pick(AFFIRMATIONS) : '',
    gratitude: random.chance(0.8) ? random.pick(GRATITUDE) : '',
    forgiveness: random.chance(0.4) ? random.pick(FORGIVENESS) : '',
  };
  if (!entry.affirmation && !entry.gratitude && !entry.forgiveness) entry.gratitude = random.pick(GRATITUDE);
  return entry;
}

function stageOf(index: number): { stage: DemoStage; showcase: (typeof SHOWCASE)[number] | null } {
  const showcase = SHOWCASE[index - 1];
  if (showcase) return { stage: showcase.stage, showcase };
  return { stage: STAGE_PATTERN[(index - 1 - SHOWCASE.length) % STAGE_PATTERN.length]!, showcase: null };
}

export const participantEmail = (index: number) => {
  const showcase = SHOWCASE[index - 1];
  return `${showcase ? showcase.local : `participant-${String(index).padStart(4, '0')}`}@${DEMO_EMAIL_DOMAIN}`;
};

/** Participant `index` (1-based) of the cohort of `seed`, as she is at `now`. */
export function generateParticipant(
  seed: string,
  index: number,
  now: Date,
  options: { stage?: Exclude<DemoStage, 'not_consented'> } = {},
): DemoParticipant {
  const random = createRandom(seed, `participant:${index}`);
  // `stage`: at that point of the study whatever her index (a bench's cohort all through it)
  const { stage, showcase } = options.stage ? { stage: options.stage, showcase: null } : stageOf(index);
  const clean = showcase?.local === 'day20';
  const latest = new Date(now.getTime() - MINUTE); // nothing happens later than a minute ago

  const firstName = random.pick(FIRST_NAMES);
  const lastName = random.pick(LAST_NAMES);
  const timezone = random.pick(TIMEZONES);
  const hormonalStage = random.pick(HORMONAL_STAGES);
  const today = calendarDateIn(timezone, now);
  const age = random.int(40, 64);
  const dateOfBirth = `${Number(today.slice(0, 4)) - age}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`;
  const person = personModel(random, clean);

  const day = stage === 'not_consented' ? null : (showcase?.day ?? random.int(...STAGE_DAYS[stage]));
  let consentAt: Date | null = null;
  let studyStartDate: string | null = null;
  let registeredAt: Date;
  if (day === null) {
    registeredAt = earliest(new Date(instantAt(timezone, addDays(today, -random.int(1, 10)), random.int(10 * 60, 22 * 60))), latest);
  } else {
    studyStartDate = addDays(today, -(day - 1));
    consentAt = earliest(new Date(instantAt(timezone, studyStartDate, random.int(19 * 60, 22 * 60 + 30))), latest);
    registeredAt = new Date(consentAt.getTime() - random.int(5, 3 * 24 * 60) * MINUTE);
  }

  const nights: DemoNight[] = [];
  if (studyStartDate !== null && consentAt !== null && day !== null) {
    const extra = stage === 'completed' && random.chance(IMPERFECTION_RATES.afterStudy) ? random.int(1, 6) : 0;
    // Night n is the evening of study day n, logged the next morning: up to last night,
    // once it has ended (04:00 her time: a cohort made at 02:00 logs the night before it).
    const lastNight = Math.min(day - 1, stage === 'completed' ? 42 + extra : day - 1);
    const lastEnded = lastEndedNight(timezone, latest);
    for (let n = 1; n <= lastNight; n++) {
      const date = addDays(studyStartDate, n - 1);
      const status = studyStatusOn(studyStartDate, date);
      // every draw is made whether or not the night is missed: a missed night changes no other
      const missed = random.chance(person.model.missRate);
      const imperfections: Imperfection[] = [];
      const material = wornMaterial(random, status.recommendedMaterial, status.phase, clean);
      if (material !== status.recommendedMaterial && status.phase !== 'completed') imperfections.push('material_mismatch');
      const values = nightValues(random, person, material, clean, imperfections);
      const morning = new Date(instantAt(timezone, addDays(date, 1), random.int(6 * 60, 9 * 60 + 30)));
      const lateDays = random.chance(IMPERFECTION_RATES.recordedLate) && !clean ? random.int(4, 9) : 0;
      const revise = random.chance(IMPERFECTION_RATES.revised) && !clean;
      const reviseAfter = random.int(30, 48 * 60) * MINUTE;
      const qualityChange = random.chance(0.5) ? 1 : -1;
      if (missed || date > lastEnded) continue;

      let recordedAt = earliest(morning, latest);
      if (lateDays > 0 && morning.getTime() + lateDays * DAY <= latest.getTime()) {
        recordedAt = new Date(morning.getTime() + lateDays * DAY);
        imperfections.push('recorded_late');
      }
      let revision: DemoNight['revision'] = null;
      const revisedAt = new Date(recordedAt.getTime() + reviseAfter);
      if (revise && revisedAt.getTime() <= latest.getTime()) {
        const quality = values.sleepQuality110 ?? 6;
        const corrected = quality + qualityChange >= 1 && quality + qualityChange <= 10 ? quality + qualityChange : quality - qualityChange;
        revision = { values: { ...values, sleepQuality110: corrected }, at: revisedAt };
        imperfections.push('revised');
      }
      nights.push({ date, studyDay: status.day!, phase: status.phase, material, values, recordedAt, revision, imperfections });
    }
  }

  // Journal: on some evenings from the day she registered up to today.
  const journal: DemoJournalEntry[] = [];
  const journalRate = clean ? 0.8 : random.pick(JOURNAL_RATES);
  const firstDay = calendarDateIn(timezone, registeredAt);
  for (let date = firstDay; date <= today; date = addDays(date, 1)) {
    const write = random.chance(journalRate);
    const at = new Date(instantAt(timezone, date, random.int(20 * 60, 23 * 60 + 30)));
    const entry = journalEntry(random, at);
    if (write && at.getTime() > registeredAt.getTime() && at.getTime() <= latest.getTime()) journal.push(entry);
  }

  return {
    index,
    email: participantEmail(index),
    firstName,
    lastName,
    dateOfBirth,
    timezone,
    hormonalStage,
    registeredAt,
    stage,
    studyDay: day,
    showcase: showcase?.local ?? null,
    consentAt,
    studyStartDate,
    model: person.model,
    nights,
    journal,
  };
}

/** Threads started by participants, and a few hellos in the welcome thread. */
function communityThreads(seed: string, participants: readonly DemoParticipant[], now: Date): DemoThread[] {
  const random = createRandom(seed, 'community');
  const latest = now.getTime() - MINUTE;
  // Writers: registered at least a day ago.
  const writers = participants.filter((p) => p.registeredAt.getTime() < latest - DAY);
  if (writers.length === 0) return [];
  const threads: DemoThread[] = [];
  const count = Math.min(THREADS.length, Math.max(1, Math.ceil(participants.length / 5)));
  THREADS.slice(0, count).forEach((template, t) => {
    const completed = writers.filter((p) => p.stage === 'completed');
    const creator = random.pick(template.name === 'Study finished!' && completed.length > 0 ? completed : writers);
    // Started 1-20 days ago (not before she registered), each reply a few hours after the
    // last. The first thread is today's conversation: started yesterday, its replies spread
    // evenly up to the last hour or two.
    const startFrom = Math.max(creator.registeredAt.getTime() + 10 * MINUTE, latest - 20 * DAY);
    const lively = t === 0;
    let at = lively
      ? Math.max(startFrom, latest - random.int(20, 26) * 60 * MINUTE)
      : startFrom + random.uniform() * Math.max(0, latest - DAY - startFrom);
    const createdAt = new Date(at);
    const livelyStep = (latest - random.int(10, 90) * MINUTE - at) / template.messages.length;
    const messages: DemoMessage[] = [];
    template.messages.forEach((body, i) => {
      at += lively ? livelyStep : random.int(2, i === 0 ? 5 : 18 * 60) * MINUTE;
      if (at > latest) return;
      const known = writers.filter((p) => p.registeredAt.getTime() < at);
      const author = i === 0 || known.length === 0 ? creator : random.pick(known);
      messages.push({ author: author.index, body, at: new Date(at) });
    });
    threads.push({ name: template.name, creator: creator.index, createdAt, messages });
  });
  const hellos: DemoMessage[] = [];
  for (const writer of writers.slice(0, Math.min(WELCOME_MESSAGES.length * 2, Math.ceil(participants.length / 10)))) {
    const at = writer.registeredAt.getTime() + random.int(5, 120) * MINUTE;
    if (at <= latest) hellos.push({ author: writer.index, body: random.pick(WELCOME_MESSAGES), at: new Date(at) });
  }
  hellos.sort((a, b) => a.at.getTime() - b.at.getTime());
  if (hellos.length > 0) threads.push({ name: null, creator: null, createdAt: null, messages: hellos });
  return threads;
}

/** The whole demo cohort of `participants` people for `seed`, as it is at `now`. */
export function generateCohort(options: CohortOptions): DemoCohort {
  const { participants: n, seed, now } = options;
  if (!Number.isInteger(n) || n < 1) throw new Error('participants must be a whole number of at least 1');
  const participants = Array.from({ length: n }, (_, i) => generateParticipant(seed, i + 1, now));
  const firstRegistration = Math.min(...participants.map((p) => p.registeredAt.getTime()));
  const admin: DemoAccount = {
    index: 0,
    email: DEMO_ADMIN_EMAIL,
    firstName: 'Dana',
    lastName: 'Admin',
    dateOfBirth: null,
    timezone: 'Europe/London',
    hormonalStage: null,
    registeredAt: new Date(firstRegistration - DAY),
  };
  return { seed, now, admin, participants, threads: communityThreads(seed, participants, now) };
}
