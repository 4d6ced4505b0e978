import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const ResearchExportConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4006),
  /** When the nightly run starts, as HH:MM in RESEARCH_EXPORT_TIMEZONE; `off`: no nightly run (on demand only). */
  RESEARCH_EXPORT_TIME: z
    .string()
    .regex(/^(([01]\d|2[0-3]):[0-5]\d|off)$/, 'must be HH:MM (24-hour), e.g. 02:00, or off')
    .default('02:00'),
  /** An IANA time zone, e.g. UTC or Europe/London. */
  RESEARCH_EXPORT_TIMEZONE: z
    .string()
    .default('UTC')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone, e.g. UTC or Europe/London'),
  /** A participant enters a comparison only with at least this many nights in both of its phases. */
  RESEARCH_MIN_NIGHTS_PER_PHASE: z.coerce.number().int().min(2).max(14).default(7),
  /** A night recorded more than this many days after the night is flagged (recall). */
  RESEARCH_LATE_RECORD_DAYS: z.coerce.number().int().min(1).default(3),
  /**
   * Leave demo accounts (e-mail at demo.sleepweave.test, `npm run demo`) out of research
   * runs: listed in participants.csv with the reason, in no phase mean or comparison.
   */
  RESEARCH_EXCLUDE_DEMO: z.stringbool({ error: 'must be true or false' }).default(false),
  /** How many zips of finished runs are kept (older ones are pruned; their records stay). */
  RESEARCH_RUNS_KEPT: z.coerce.number().int().min(1).default(30),
});
export type ResearchExportConfig = z.infer<typeof ResearchExportConfig>;

export const readResearchExportConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(ResearchExportConfig, env);
