import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { tooManyRequests } from './errors.ts';
import type { ServiceApp } from './http.ts';

/** Makes per-route limits (`perUserLimit`) work in a service's app; no route is limited by it alone. */
export async function registerRateLimits(app: ServiceApp): Promise<void> {
  await app.register(rateLimit, { global: false });
}

/**
 * A per-user limit for one route (@fastify/rate-limit, in memory per instance), as its
 * `config`: counted per signed-in user once the request is valid, answered with 429
 * `{ error: 'too_many_requests', message }`.
 */
export function perUserLimit(max: number, timeWindow: string, message: string) {
  return {
    rateLimit: {
      max,
      timeWindow,
      // After validation: a refused body is not an attempt. Without a session (401 next) per IP.
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) => request.user?.sub ?? request.ip,
      errorResponseBuilder: () => tooManyRequests(message),
    },
  };
}

export const personalExportLimitMessage = (max: number) =>
  `You can export up to ${max} times in 10 minutes. Please wait a few minutes and try again.`;

/** The `config` of a route of her own exports (sleep, journal, research data): PERSONAL_EXPORTS_PER_10_MINUTES a user. */
export const personalExportLimit = (max: number) => perUserLimit(max, '10 minutes', personalExportLimitMessage(max));
