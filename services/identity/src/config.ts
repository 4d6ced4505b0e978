import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const IdentityConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4001),
  /** Comma-separated e-mails that are made admins at start and at registration. */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Per client IP, per minute. */
  LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Failed sign-ins per account within LOGIN_FAILURE_WINDOW_MINUTES before 429. */
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
});
export type IdentityConfig = z.infer<typeof IdentityConfig>;

export const readIdentityConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(IdentityConfig, env);
