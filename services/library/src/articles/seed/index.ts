import { bedroomTemperature } from './bedroom-temperature.ts';
import { breathing } from './breathing.ts';
import { cotton } from './cotton.ts';
import { dailyRoutine } from './daily-routine.ts';
import { fabricsAndSleep } from './fabrics-and-sleep.ts';
import { heartSignals } from './heart-signals.ts';
import { howTheStudyWorks } from './how-the-study-works.ts';
import { lightAndBodyClock } from './light-and-body-clock.ts';
import { linen } from './linen.ts';
import { menopauseSleep } from './menopause-sleep.ts';
import { nightSweats } from './night-sweats.ts';
import { silkAndPolyester } from './silk-and-polyester.ts';
import { sleepScore } from './sleep-score.ts';
import { sleepStages } from './sleep-stages.ts';
import { wool } from './wool.ts';
import type { SeedArticleSource } from './types.ts';

export type { SeedArticleSource } from './types.ts';

/**
 * The library's original articles, written for Sleepweave. Published once each, by the
 * system, on the first start (see ../seed.ts). Add new ones with a new fixed id; to change
 * a published one, revise it through the admin API (an edit here reaches only new
 * installations).
 */
export const SEED_ARTICLES: readonly SeedArticleSource[] = [
  howTheStudyWorks,
  fabricsAndSleep,
  linen,
  cotton,
  wool,
  silkAndPolyester,
  menopauseSleep,
  nightSweats,
  bedroomTemperature,
  lightAndBodyClock,
  dailyRoutine,
  breathing,
  sleepStages,
  sleepScore,
  heartSignals,
];
