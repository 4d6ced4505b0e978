import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const LibraryConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4005),
});
export type LibraryConfig = z.infer<typeof LibraryConfig>;

export const readLibraryConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(LibraryConfig, env);
