import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const StudyConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4002),
});
export type StudyConfig = z.infer<typeof StudyConfig>;

export const readStudyConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(StudyConfig, env);
