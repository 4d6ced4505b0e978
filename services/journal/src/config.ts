import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const JournalConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4003),
});
export type JournalConfig = z.infer<typeof JournalConfig>;

export const readJournalConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(JournalConfig, env);
