import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { consentText, type RegisterRequest } from '@sleepweave/contracts';
import { findDirectoryUser } from '@sleepweave/service-kit';
import { startTestService, testEnv } from '@sleepweave/service-kit/testing';
import type { Logger } from 'pino';
import { expect } from 'vitest';
import { register, startIdentity, type Identity } from '../../../identity/src/test/helpers.ts';
import { readStudyConfig } from '../config.ts';
import { consentDecider } from '../consents/business-logic.ts';
import { consentStreamId } from '../consents/consent.ts';
import { studyService } from '../service.ts';

/**
 * The study as it runs for real: identity (listening, so the study fetches its JWKS)
 * issues the tokens and publishes registrations on the same bus prefix, from which the
 * study keeps its user directory (her timezone).
 */
export async function startStudy(options: { logger?: Logger } = {}) {
  const identity = await startIdentity({ HOST: '127.0.0.1' }, { listen: true });
  const identityUrl = `http://127.0.0.1:${(identity.app.server.address() as AddressInfo).port}`;
  const study = await startTestService(
    studyService,
    readStudyConfig(
      testEnv({
        BUS_PREFIX: identity.deps.config.BUS_PREFIX,
        IDENTITY_URL: identityUrl,
        INTERNAL_TOKEN: identity.deps.config.INTERNAL_TOKEN,
      }),
    ),
    { history: 'http', logger: options.logger }, // identity's real history
  );
  return {
    identity,
    study,
    async cleanup() {
      await study.cleanup();
      await identity.cleanup();
    },
  };
}
export type Study = Awaited<ReturnType<typeof startStudy>>;

/** A newly registered participant, once the study knows her; `headers` carry her token. */
export async function newParticipant(
  env: { identity: Identity; study: Study['study'] },
  timezone: RegisterRequest['timezone'] = 'Europe/London',
) {
  const { user, access } = await register(env.identity, { timezone });
  await expect.poll(async () => (await findDirectoryUser(env.study.deps.sql, user.id))?.userId, { timeout: 5_000 }).toBe(user.id);
  return { userId: user.id, access, headers: { authorization: `Bearer ${access}` } };
}
export type Participant = Awaited<ReturnType<typeof newParticipant>>;

/** A participant who has consented (her study starts today in her timezone). */
export async function consentedParticipant(env: Study, timezone: RegisterRequest['timezone'] = 'Europe/London') {
  const participant = await newParticipant(env, timezone);
  const response = await env.study.app.inject({ method: 'POST', url: '/api/sleep/consent', headers: participant.headers, payload: {} });
  if (response.statusCode !== 201) throw new Error(`consent failed: ${response.statusCode} ${response.body}`);
  return { ...participant, studyStartDate: response.json().studyStartDate as string };
}

/** Her consent as given at `at` (days ago, say: a study under way), through the decider, as the consent route gives it now. */
export async function giveConsentAt(env: Study, userId: string, timezone: RegisterRequest['timezone'], at: Date): Promise<void> {
  await env.study.context.store.handle(consentStreamId(userId), consentDecider, {
    type: 'GiveConsent',
    data: { consentId: randomUUID(), userId, consentText: consentText(), consentVersion: '1.0', ipAddress: null, timezone, now: at },
  });
}
