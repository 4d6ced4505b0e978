import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const CommunityConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4004),
  /** New threads per member per hour (in memory, per community instance). */
  THREAD_CREATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /** Messages per member per minute (in memory, per community instance). */
  MESSAGE_POST_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
});
export type CommunityConfig = z.infer<typeof CommunityConfig>;

export const readCommunityConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(CommunityConfig, env);
