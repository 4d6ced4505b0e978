import { fileURLToPath } from 'node:url';
import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const GatewayConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** localhost: both 127.0.0.1 and ::1 (use 0.0.0.0 in a container). */
  HOST: z.string().default('localhost'),
  /** The web build served at / (SPA). */
  WEB_DIST: z.string().default(fileURLToPath(new URL('../../web/dist', import.meta.url))),
  /** How long a revoked session id is remembered: at least the access-token lifetime. */
  REVOCATION_MEMORY_SECONDS: z.coerce.number().int().min(60).default(3600),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;

export const readGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(GatewayConfig, env);
