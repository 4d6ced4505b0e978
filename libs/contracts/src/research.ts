import { z } from 'zod';
import { Uuid } from './common.ts';

/**
 * The research-export service's HTTP shapes (admin runs, the latest result, and the
 * participant's own export). The research files themselves are described by the codebook
 * inside each zip (docs/research-export.md).
 */

/** The phase pairs compared: polyester vs linen is the study's question; the others are secondary. */
export const ResearchComparison = z.enum(['polyester_vs_linen', 'polyester_vs_washout', 'washout_vs_linen']);
export type ResearchComparison = z.infer<typeof ResearchComparison>;

export const ResearchRunTrigger = z.enum(['schedule', 'admin']);
export type ResearchRunTrigger = z.infer<typeof ResearchRunTrigger>;

export const ResearchRunStatus = z.enum(['queued', 'running', 'finished', 'failed']);
export type ResearchRunStatus = z.infer<typeof ResearchRunStatus>;

/** One metric of the primary comparison, for the forest plot: Cohen's d_z with its 95% CI. */
export const ResearchEffect = z.object({
  metric: z.string(),
  label: z.string(),
  nPairs: z.number().int(),
  /** null: not computable (see `note`). */
  dz: z.number().nullable(),
  dzLow: z.number().nullable(),
  dzHigh: z.number().nullable(),
  /** Holm-adjusted p across the metrics of the comparison. */
  pHolm: z.number().nullable(),
  /** Why d_z, or its 95% CI, is empty, in a sentence ("No complete pairs."); null when neither is (comparisons.csv's note says more). */
  note: z.string().nullable(),
});
export type ResearchEffect = z.infer<typeof ResearchEffect>;

/** What a finished run found, in brief: enough for the admin screen. */
export const ResearchRunSummary = z.object({
  participantsIncluded: z.number().int(),
  participantsExcluded: z.number().int(),
  /** Of those included, how many were still in their study (an interim run); absent from runs before 2026-12-07. */
  participantsIncludedInStudy: z.number().int().optional(),
  nights: z.number().int(),
  /** The QA headline, e.g. "12 of 4,180 nights flagged; 3 participants excluded (too few nights in a phase)". */
  qaHeadline: z.string(),
  /** Polyester vs linen, every metric. */
  primary: z.array(ResearchEffect),
});
export type ResearchRunSummary = z.infer<typeof ResearchRunSummary>;

export const ResearchRun = z.object({
  id: Uuid,
  trigger: ResearchRunTrigger,
  status: ResearchRunStatus,
  /** ISO date-times. */
  requestedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  /** Why it failed, in words. */
  failure: z.string().nullable(),
  /** The zip's file name and size, once finished and while kept (the last RESEARCH_RUNS_KEPT, 30 by default). */
  fileName: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  downloadable: z.boolean(),
  /** Its zip was removed because a participant in it deleted her account (docs/data-protection.md). */
  fileRemoved: z.boolean(),
  summary: ResearchRunSummary.nullable(),
});
export type ResearchRun = z.infer<typeof ResearchRun>;

export const ResearchRunList = z.array(ResearchRun);
export type ResearchRunList = z.infer<typeof ResearchRunList>;

/** POST /api/admin/research/runs answers 202 with this. */
export const ResearchRunStarted = z.object({ id: Uuid });
export type ResearchRunStarted = z.infer<typeof ResearchRunStarted>;

/**
 * GET /api/admin/research/schedule: when the nightly run starts (HH:MM on the clock of an
 * IANA time zone, RESEARCH_EXPORT_TIME and RESEARCH_EXPORT_TIMEZONE), or null when it is
 * off and runs are made on demand only.
 */
export const ResearchSchedule = z.object({
  nightly: z.object({ time: z.string().regex(/^\d{2}:\d{2}$/), timeZone: z.string() }).nullable(),
});
export type ResearchSchedule = z.infer<typeof ResearchSchedule>;
