import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { findDirectoryUser } from '@sleepweave/service-kit';
import { startTestService, testEnv } from '@sleepweave/service-kit/testing';
import { register, startIdentity, type Identity } from '../../../identity/src/test/helpers.ts';
import { readJournalConfig } from '../config.ts';
import { journalService } from '../service.ts';

/**
 * The journal as it runs for real: identity (listening, so the journal fetches its JWKS)
 * issues the tokens and publishes registrations on the same bus prefix, from which the
 * journal keeps its user directory.
 */
export async function startJournal(overrides: Record<string, string> = {}) {
  const identity = await startIdentity({ HOST: '127.0.0.1' }, { listen: true });
  const identityUrl = `http://127.0.0.1:${(identity.app.server.address() as AddressInfo).port}`;
  const journal = await startTestService(
    journalService,
    readJournalConfig(
      testEnv({
        BUS_PREFIX: identity.deps.config.BUS_PREFIX,
        IDENTITY_URL: identityUrl,
        INTERNAL_TOKEN: identity.deps.config.INTERNAL_TOKEN,
        ...overrides,
      }),
    ),
    { history: 'http' }, // identity's real history
  );
  return {
    identity,
    journal,
    async cleanup() {
      await journal.cleanup();
      await identity.cleanup();
    },
  };
}
export type Journal = Awaited<ReturnType<typeof startJournal>>;

/** A newly registered participant, once the journal knows her; `headers` carry her token. */
export async function newParticipant(
  env: { identity: Identity; journal: Journal['journal'] },
  timezone: 'Europe/London' | 'America/Los_Angeles' = 'Europe/London',
) {
  const { user, access } = await register(env.identity, { timezone });
  // (a loop, not expect.poll: it also runs in beforeAll)
  const deadline = Date.now() + 5_000;
  while (!(await findDirectoryUser(env.journal.deps.sql, user.id))) {
    if (Date.now() > deadline) throw new Error(`the journal never learnt of user ${user.id}`);
    await sleep(50);
  }
  return { userId: user.id, headers: { authorization: `Bearer ${access}` } };
}
export type Participant = Awaited<ReturnType<typeof newParticipant>>;
