import { randomUUID } from 'node:crypto';
import { ConsentRequest, ConsentStatus, DEFAULT_CONSENT_VERSION, STUDY_PROTOCOLS, consentText } from '@sleepweave/contracts';
import { isConcurrencyError } from '@sleepweave/event-store';
import { awaitDirectoryUser, lockDirectoryUser, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { StudyContext } from '../context.ts';
import { consentDecider } from './business-logic.ts';
import { consentStreamId } from './consent.ts';
import { findConsent, toConsentStatus } from './queries.ts';

export async function consentRoutes(app: ServiceApp, ctx: StudyContext): Promise<void> {
  app.get('/api/sleep/consent', { schema: { response: { 200: ConsentStatus } } }, async (request) => {
    const { sub } = requireUser(request);
    return toConsentStatus(await findConsent(ctx.sql, sub));
  });

  /**
   * Records her consent (the text of the version she saw, the time, her IP) and starts the
   * study. 201 when recorded now; 200 with the existing consent when it was given before
   * (the start date never moves).
   */
  app.post(
    '/api/sleep/consent',
    { schema: { body: ConsentRequest.optional(), response: { 200: ConsentStatus, 201: ConsentStatus } } },
    async (request, reply) => {
      const { sub: userId } = requireUser(request);
      const existing = await findConsent(ctx.sql, userId);
      if (existing) return reply.status(200).send(toConsentStatus(existing));

      await awaitDirectoryUser(ctx.sql, userId);
      const consentVersion = request.body?.consentVersion ?? DEFAULT_CONSENT_VERSION;
      const protocol = STUDY_PROTOCOLS[consentVersion]!;
      let recorded = false;
      try {
        recorded = await ctx.store.transaction(async (tx) => {
          // Her directory row stays until we commit: a deletion in flight waits for us (and
          // removes this consent) or we wait for it and answer 401 (libs/service-kit user-directory.ts).
          const { timezone } = await lockDirectoryUser(tx, userId);
          const { events } = await ctx.store.handle(
            consentStreamId(userId),
            consentDecider,
            {
              type: 'GiveConsent',
              data: {
                consentId: randomUUID(),
                userId,
                consentText: consentText(protocol),
                consentVersion,
                ipAddress: request.ip ?? null,
                timezone,
                now: new Date(),
              },
            },
            { tx, metadata: { correlationId: request.correlationId, userId } },
          );
          return events.length > 0;
        });
      } catch (err) {
        // A consent sent at the same moment (a double click) came first: hers stands.
        if (!isConcurrencyError(err)) throw err;
      }
      return reply.status(recorded ? 201 : 200).send(toConsentStatus(await findConsent(ctx.sql, userId)));
    },
  );
}
