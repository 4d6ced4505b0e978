import { tooManyRequests } from '@sleepweave/service-kit';
import type { FastifyRequest } from 'fastify';

/**
 * A per-member limit for one route (@fastify/rate-limit, in memory per instance): counted
 * per signed-in user once the body is valid, answered with 429
 * `{ error: 'too_many_requests', message }`.
 */
export function perMemberLimit(max: number, timeWindow: string, message: string) {
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

export const threadCreateLimitMessage = (max: number) => `You can start up to ${max} threads an hour. Please try again later.`;
export const messagePostLimitMessage = (max: number) => `You can send up to ${max} messages a minute. Please wait a moment and try again.`;
