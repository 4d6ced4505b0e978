import { z } from 'zod';
import { EventEnvelope } from './events.ts';

/**
 * The named internal calls between services (never routed by the gateway; every
 * `/internal/*` call carries the deployment's internal token, docs/decisions.md).
 */

/** The header that carries the internal token. */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

/**
 * GET /internal/events?after=&types=&limit= on every service that publishes: its
 * integration history, read from its own event store (libs/event-store history.ts).
 */
export const HistoryQuery = z.object({
  /** `<transaction id>:<global position>`; `0:0` from the start. */
  after: z
    .string()
    .regex(/^\d{1,20}:\d{1,20}$/, 'after must be <transaction id>:<global position>')
    .default('0:0'),
  /** Comma-separated integration types. */
  types: z
    .string()
    .min(1, 'types is required')
    .transform((value) => value.split(',').filter(Boolean)),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

export const HistoryPageResponse = z.object({
  events: z.array(EventEnvelope),
  next: z.string(),
  end: z.boolean(),
});
export type HistoryPageResponse = z.infer<typeof HistoryPageResponse>;

/** POST /internal/session/refresh (identity): a refresh token for a new access token. */
export const SessionRefreshRequest = z.object({
  refreshToken: z.string().min(1).max(200),
  /**
   * false: an access token only, the refresh token stays (a WebSocket handshake, which
   * cannot set the new cookie). Default true: the refresh token is rotated.
   */
  rotate: z.boolean().default(true),
});
export type SessionRefreshRequest = z.input<typeof SessionRefreshRequest>;
export const SessionRefreshResponse = z.object({
  accessToken: z.string(),
  expiresIn: z.number(),
  sessionId: z.string(),
  userId: z.string(),
  /**
   * The refresh token that replaces the one presented (rotation), and its cookie's
   * lifetime; absent when a token retired a moment ago was presented again (a request the
   * browser sent at the same time): the cookie it already got stays.
   */
  refresh: z.object({ token: z.string(), maxAgeSeconds: z.number() }).optional(),
});
export type SessionRefreshResponse = z.infer<typeof SessionRefreshResponse>;
