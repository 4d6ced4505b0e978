import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { Timezone } from '@sleepweave/contracts';
import { findDirectoryUser, type AccessTokenVerifier } from '@sleepweave/service-kit';
import { fakeProducers, startTestService, testEnv } from '@sleepweave/service-kit/testing';
import { expect } from 'vitest';
import { readCommunityConfig } from '../config.ts';
import { communityService } from '../service.ts';

/**
 * Tokens for tests: `test-token:<userId>`. Signature checks of real tokens are tested in
 * service-kit, identity and the gateway; here the caller's identity is what matters.
 */
const testVerifier: AccessTokenVerifier = async (token) => {
  const match = /^test-token:([0-9a-f-]{36})$/.exec(token);
  if (!match) throw new Error('not a test token');
  return { sub: match[1]!, sid: randomUUID(), role: 'participant', exp: Math.floor(Date.now() / 1000) + 900 };
};

export async function startCommunity(
  env: NodeJS.ProcessEnv = {},
  options: { background?: boolean; listen?: boolean } = {},
  overrides: Partial<typeof communityService> = {},
) {
  const config = readCommunityConfig(testEnv(env));
  // identity and study are not running: what the tests publish as them is their history
  const producers = await fakeProducers(config);
  const service = await startTestService({ ...communityService, verifier: () => testVerifier, ...overrides }, config, {
    ...options,
    history: producers.history,
  });
  return {
    ...service,
    producers,
    async cleanup() {
      await service.cleanup();
      await producers.close();
    },
  };
}
export type Community = Awaited<ReturnType<typeof startCommunity>>;

export const bearer = (userId: string) => ({ authorization: `Bearer test-token:${userId}` });

export interface TestUser {
  id: string;
  email: string;
  firstName: string;
  headers: { authorization: string };
}

/** A user as identity announces her; waits until community's user_directory knows her. */
export async function addUser(
  community: Community,
  overrides: Partial<{ firstName: string; email: string; timezone: Timezone; profileImageUrl: string | null }> = {},
): Promise<TestUser> {
  const id = randomUUID();
  const email = overrides.email ?? `member.${id}@example.com`;
  const firstName = overrides.firstName ?? 'Ines';
  await community.producers.publish(
    testEnvelope('identity.user.registered', {
      userId: id,
      email,
      firstName,
      lastName: 'Okafor',
      dateOfBirth: '1970-06-01',
      timezone: overrides.timezone ?? 'Europe/London',
      hormonalStage: 'Menopause',
      profileImageUrl: overrides.profileImageUrl ?? null,
      role: 'participant',
      registeredAt: new Date().toISOString(),
    }),
  );
  await expect.poll(async () => (await findDirectoryUser(community.deps.sql, id))?.email, { timeout: 5_000 }).toBe(email);
  return { id, email, firstName, headers: bearer(id) };
}

export async function deleteUser(community: Community, userId: string): Promise<void> {
  await community.producers.publish(testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() }));
  await expect.poll(async () => await findDirectoryUser(community.deps.sql, userId), { timeout: 5_000 }).toBeUndefined();
}

export async function createThread(community: Community, user: TestUser, name = `Night sweats ${randomUUID().slice(0, 8)}`) {
  const response = await community.app.inject({ method: 'POST', url: '/api/community/thread', headers: user.headers, payload: { name } });
  if (response.statusCode !== 201) throw new Error(`create thread failed: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; name: string; memberCount: number };
}

export async function post(community: Community, user: TestUser, threadId: string, body: string) {
  return community.app.inject({ method: 'POST', url: '/api/community/message', headers: user.headers, payload: { threadId, body } });
}

export async function openThread(community: Community, user: TestUser, threadId: string) {
  return community.app.inject({ method: 'GET', url: `/api/community/thread/${threadId}`, headers: user.headers });
}
