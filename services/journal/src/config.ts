import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const JournalConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4003),
  /**
   * Entries a user may write an hour (in memory, per journal instance): a daily journal is a
   * few a day; without a bound one account wrote 600 in 9 s, every one kept for good.
   */
  JOURNAL_ENTRY_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(60),
});
export type JournalConfig = z.infer<typeof JournalConfig>;

export const readJournalConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(JournalConfig, env);
