import { timingSafeEqual } from 'node:crypto';
import type { StreamName } from '@sleepweave/bus';
import { HistoryPageResponse, HistoryQuery, INTERNAL_TOKEN_HEADER, parseEnvelope, type EventEnvelope } from '@sleepweave/contracts';
import { readIntegrationHistory, type HistorySource, type RecordedEvent } from '@sleepweave/event-store';
import type { BaseConfig } from './config.ts';
import type { Sql } from './database.ts';
import { HttpError } from './errors.ts';
import { callService, isSuccess } from './http-client.ts';
import type { ServiceApp } from './http.ts';

/**
 * Calls between services: `/internal/*` routes are never routed by the gateway, and each
 * call carries the deployment's internal token (INTERNAL_TOKEN), so nothing else that can
 * reach a service's port reads them (a service's history holds personal data).
 */

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Refuses an `/internal/*` call without the internal token (401). Read from the route the
 * path matched, not the URL as sent: the router decodes the path first, so
 * `/%69nternal/events` reaches the same handler while its URL does not start with `/internal/`.
 */
export function requireInternalToken(app: ServiceApp, token: string): void {
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.url?.startsWith('/internal/')) return;
    const given = request.headers[INTERNAL_TOKEN_HEADER];
    if (typeof given !== 'string' || !sameSecret(given, token)) {
      throw new HttpError(401, 'unauthorized', 'This is an internal route.');
    }
  });
}

/** Headers of a call to another service's internal route. */
export const internalHeaders = (token: string): Record<string, string> => ({ [INTERNAL_TOKEN_HEADER]: token });

/**
 * GET /internal/events: this service's integration history (libs/event-store history.ts),
 * through the relay's own mapping.
 */
export function historyRoute(app: ServiceApp, sql: Sql, toIntegration: (event: RecordedEvent) => EventEnvelope | null): void {
  app.get('/internal/events', { schema: { querystring: HistoryQuery, response: { 200: HistoryPageResponse } } }, async (request) => {
    const { after, types, limit } = request.query;
    return readIntegrationHistory(sql, { toIntegration, after, types, limit });
  });
}

/** The base URL of the service that produces a stream (its `<SERVICE>_URL` setting). */
export function producerUrl(config: BaseConfig, stream: StreamName): string {
  const urls: Record<StreamName, string> = {
    IDENTITY: config.IDENTITY_URL,
    STUDY: config.STUDY_URL,
    JOURNAL: config.JOURNAL_URL,
    COMMUNITY: config.COMMUNITY_URL,
    LIBRARY: config.LIBRARY_URL,
    RESEARCH: config.RESEARCH_EXPORT_URL,
  };
  return urls[stream];
}

/** A producer's history over HTTP: GET {baseUrl}/internal/events. */
export function httpHistory(name: string, baseUrl: string, token: string): HistorySource {
  return {
    name,
    async page(after, types, signal) {
      const url = new URL('/internal/events', baseUrl);
      url.searchParams.set('after', after);
      url.searchParams.set('types', types.join(','));
      const answer = await callService(url, { headers: internalHeaders(token), timeoutMs: 30_000, signal });
      if (!isSuccess(answer)) throw new Error(`${name} answered ${answer.status} for its history: ${answer.body.slice(0, 200)}`);
      const page = HistoryPageResponse.parse(JSON.parse(answer.body));
      return { ...page, events: page.events.map((raw) => parseEnvelope(raw)) };
    },
  };
}

/** Every producer's history, by stream, as the deployment's settings locate them. */
export function historyFromConfig(config: BaseConfig): (stream: StreamName) => HistorySource {
  return (stream) => httpHistory(stream.toLowerCase(), producerUrl(config, stream), config.INTERNAL_TOKEN);
}
