import { ConsentRequest, ConsentStatus, DEFAULT_CONSENT_VERSION } from '@sleepweave/contracts';
import { requestMetadata, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { StudyContext } from '../context.ts';
import { giveConsent } from './commands.ts';
import { findConsent, toConsentStatus } from './queries.ts';

export async function consentRoutes(app: ServiceApp, ctx: StudyContext): Promise<void> {
  app.get('/api/sleep/consent', { schema: { response: { 200: ConsentStatus } } }, async (request) => {
    const { sub } = requireUser(request);
    return toConsentStatus(await findConsent(ctx.sql, sub));
  });

  /** 201 when her consent is recorded now; 200 with the existing consent when she gave it before. */
  app.post(
    '/api/sleep/consent',
    { schema: { body: ConsentRequest.nullish(), response: { 200: ConsentStatus, 201: ConsentStatus } } },
    async (request, reply) => {
      const { sub: userId } = requireUser(request);
      const existing = await findConsent(ctx.sql, userId);
      if (existing) return reply.status(200).send(toConsentStatus(existing));
      const consentVersion = request.body?.consentVersion ?? DEFAULT_CONSENT_VERSION;
      const recorded = await giveConsent(
        ctx,
        { userId, consentVersion, ipAddress: request.ip ?? null, now: new Date() },
        requestMetadata(request),
      );
      return reply.status(recorded ? 201 : 200).send(toConsentStatus(await findConsent(ctx.sql, userId)));
    },
  );
}
