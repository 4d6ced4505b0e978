import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const CommunityConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4004),
});
export type CommunityConfig = z.infer<typeof CommunityConfig>;

export const readCommunityConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(CommunityConfig, env);
