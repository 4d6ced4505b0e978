import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { tooManyRequests } from './errors.ts';
import type { ServiceApp } from './http.ts';

/**
 * The unit a client's address is counted in by every per-address limit: an IPv4 address as
 * it is (also written as IPv6), an IPv6 one by its /64 network. One IPv6 host is given a
 * whole /64 and may use any address in it: counted one by one, a single client had 2^64.
 * (@fastify/rate-limit's own grouping, which its per-IP limits use.)
 */
export const clientAddress = (ip: string): string => normalizeIP(ip);

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
      keyGenerator: (request: FastifyRequest) => request.user?.sub ?? clientAddress(request.ip),
      errorResponseBuilder: () => tooManyRequests(message),
    },
  };
}

export const personalExportLimitMessage = (max: number) =>
  `You can export up to ${max} times in 10 minutes. Please wait a few minutes and try again.`;

/** The `config` of a route of her own exports (sleep, journal, research data): PERSONAL_EXPORTS_PER_10_MINUTES a user. */
export const personalExportLimit = (max: number) => perUserLimit(max, '10 minutes', personalExportLimitMessage(max));
