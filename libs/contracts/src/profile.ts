import { z } from 'zod';

/** docs/product.md §9: timezone options, the first is the default. */
export const TIMEZONE_OPTIONS = [
  { value: 'America/New_York', label: 'Eastern Time (America/New_York)' },
  { value: 'America/Chicago', label: 'Central Time (America/Chicago)' },
  { value: 'America/Denver', label: 'Mountain Time (America/Denver)' },
  { value: 'America/Los_Angeles', label: 'Pacific Time (America/Los_Angeles)' },
  { value: 'Europe/London', label: 'GMT (Europe/London)' },
  { value: 'Europe/Paris', label: 'Central European (Europe/Paris)' },
] as const;
export const Timezone = z.enum([
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Paris',
]);
export type Timezone = z.infer<typeof Timezone>;
export const DEFAULT_TIMEZONE: Timezone = 'America/New_York';

/** docs/product.md §3 enumeration hormonal_stage; docs/product.md §9: Fertile is the default. */
export const HormonalStage = z.enum(['Fertile', 'Pregnancy', 'Perimenopause', 'Menopause', 'Post menopause']);
export type HormonalStage = z.infer<typeof HormonalStage>;
export const HORMONAL_STAGE_OPTIONS = HormonalStage.options;
export const DEFAULT_HORMONAL_STAGE: HormonalStage = 'Fertile';
