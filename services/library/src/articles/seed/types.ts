import type { LibraryArticleInput } from '@sleepweave/contracts';
import { imagePath } from '../images.ts';

/** A seed article: a fixed id (so seeding can tell it exists) and its content as an admin would send it. */
export interface SeedArticleSource {
  id: string;
  content: LibraryArticleInput;
}

/** The path of one of the library's own images (services/library/images/). */
export const image = (file: string) => imagePath(file);

/** Links between seed articles use the web app's article path. */
export const articleLink = (id: string) => `/library/article/${id}`;

export const SEED_IDS = {
  fabricsAndSleep: 'c4cc3ba4-d882-46af-bb30-e10a494dbbd7',
  linen: '127b8a0b-922d-411e-8941-0f72834d03ba',
  cotton: 'da949820-4353-4159-9d59-ca38ff9e4740',
  wool: 'eef8beb9-8ca3-4794-85d3-a70984907184',
  silkAndPolyester: '61d00ffc-c46c-4609-8539-40cafffd0f22',
  menopauseSleep: '71ba40fd-047a-4502-ae6a-9754dfb0edd5',
  nightSweats: 'e4e64bd6-11bd-48aa-9515-c6f1ae756de0',
  bedroomTemperature: '97415cfa-4748-4834-ac49-3c681bf31cb1',
  lightAndBodyClock: '1ae8b5d1-b4ed-4d79-b610-c493493d194f',
  dailyRoutine: '8b02fb2d-3cff-4020-8df8-663f7fdec092',
  breathing: '718fabc8-1654-475e-82bc-6e796fb2fccb',
  howTheStudyWorks: 'e3cbe6da-3840-49a9-b4f2-83d7a5461bc5',
  sleepStages: 'cad74ba2-a331-4ef2-b5ed-4e1f33b39c8a',
  sleepScore: '1253bd29-e6c8-4d52-bbbd-1e4ff69a052c',
  heartSignals: '00a0e3d3-459e-49f0-9e18-267d27cd7a94',
} as const;
