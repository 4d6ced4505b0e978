import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';

export const IdentityConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(4001),
  /**
   * Comma-separated e-mails made admins at start: each address once, by the first start
   * that lists it, if its account exists then (grantAdminEmails).
   */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Per client IP, per minute. */
  LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Registrations per client IP per 10 minutes. */
  REGISTER_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
  /** Failed sign-ins per account from one client (address; IPv6 /64) within LOGIN_FAILURE_WINDOW_MINUTES before 429. */
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  /** Failed sign-ins per account from every client together within LOGIN_FAILURE_WINDOW_MINUTES before 429. */
  LOGIN_FAILURES_PER_ACCOUNT_ALL_CLIENTS: z.coerce.number().int().min(1).default(30),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** SMTP server for outgoing mail (password reset), e.g. smtp://user:pass@mail.example.com:587; unset: the mail is logged. */
  SMTP_URL: z.preprocess((value) => (value === '' ? undefined : value), z.string().url().optional()),
  MAIL_FROM: z.string().min(3).default('Sleepweave <no-reply@localhost>'),
  /** Without SMTP_URL, outside production: where mail is written as files instead of being sent. */
  MAIL_OUTBOX_DIR: z.string().default(join(tmpdir(), 'sleepweave-outbox')),
  /** Password-reset requests per client IP within PASSWORD_RESET_WINDOW_MINUTES. */
  PASSWORD_RESET_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
  /** Password-reset requests per e-mail (registered or not) within PASSWORD_RESET_WINDOW_MINUTES. */
  PASSWORD_RESET_REQUESTS_PER_EMAIL: z.coerce.number().int().min(1).default(3),
  PASSWORD_RESET_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** Every forgot-password answer takes at least this long, so timing tells nothing about who is registered. */
  FORGOT_PASSWORD_MIN_RESPONSE_MS: z.coerce.number().int().min(0).max(10_000).default(400),
});
export type IdentityConfig = z.infer<typeof IdentityConfig>;

export const readIdentityConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(IdentityConfig, env);
