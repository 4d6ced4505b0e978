import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** Her exports one instance makes at once (the screens have two buttons side by side). */
export const PERSONAL_EXPORTS_AT_ONCE = 2;

export const personalExportsAtOnceMessage = (max: number) =>
  `${max} of your exports are still being made. Please wait for them to finish and try again.`;

/**
 * The options of a route of her own exports (sleep, journal, research data): at most
 * PERSONAL_EXPORTS_PER_10_MINUTES a user (`perUserLimit`), and at most `atOnce` of hers
 * being made at once by this instance, else 429 with a sentence. An export is written as it
 * is read, a long one for seconds of the service's one thread, between which the others'
 * requests are answered: 30 started together (a journal of 600 long entries as a PDF, 30
 * times) held every other request of the service behind 30 of them. One is done when its
 * answer has gone, or she went away.
 */
export function personalExportRoute(perTenMinutes: number, atOnce = PERSONAL_EXPORTS_AT_ONCE) {
  const making = new Map<string, number>();
  return {
    config: perUserLimit(perTenMinutes, '10 minutes', personalExportLimitMessage(perTenMinutes)),
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const user = request.user?.sub;
      if (user === undefined) return; // the route answers 401
      const now = making.get(user) ?? 0;
      if (now >= atOnce) throw tooManyRequests(personalExportsAtOnceMessage(atOnce));
      making.set(user, now + 1);
      reply.raw.once('close', () => {
        const left = (making.get(user) ?? 1) - 1;
        if (left > 0) making.set(user, left);
        else making.delete(user);
      });
    },
  };
}
