import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { testEnvelope } from '@sleepweave/bus/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseConfig, loadConfig } from './config.ts';
import { defineConsumer } from './consumers.ts';
import type { ServiceConfig, ServiceDefinition } from './runtime.ts';
import { fakeProducers, registeredEnvelope, startTestService, testEnv, type TestService } from './testing.ts';
import { lockDirectoryRow } from './user-directory.ts';

const Config = BaseConfig.extend({ PORT: z.coerce.number().default(0) });

/** A service that keeps a directory and, from study, who consented: only users it knows. */
const participantsService: ServiceDefinition<ServiceConfig, null> = {
  name: 'order-test',
  migrationsDir: fileURLToPath(new URL('../test/consumer-order-migrations', import.meta.url)),
  streams: ['IDENTITY', 'STUDY'],
  context: async () => null,
  projections: [],
  routes: async () => {},
  userDirectory: true,
  consumers: () => [
    defineConsumer({
      name: 'order-test-study-consents',
      types: ['study.consent.given'],
      tables: ['consented'],
      async handle(tx, envelope) {
        if (!(await lockDirectoryRow(tx, envelope.data.userId))) return; // unknown here: nothing
        await tx`insert into consented values (${envelope.data.userId}) on conflict do nothing`;
      },
    }),
  ],
};

let service: TestService<ServiceConfig, null> | undefined;
afterAll(async () => {
  await service?.cleanup();
});

describe('consumers of a new service', () => {
  it('catch up one after the other: the directory first, then what needs it', async () => {
    const config = loadConfig(Config, testEnv());
    const producers = await fakeProducers(config);
    const userId = randomUUID();
    await producers.publish(registeredEnvelope({ userId, email: 'ada@example.com' }));
    await producers.publish(
      testEnvelope('study.consent.given', {
        userId,
        consentVersion: '1.0',
        acceptedAt: new Date().toISOString(),
        studyStartDate: '2026-01-01',
      }),
    );
    // identity answers slowly: were the consents read first, hers would find nobody
    const slowHistory = (stream: Parameters<typeof producers.history>[0]) => {
      const source = producers.history(stream);
      return stream === 'IDENTITY'
        ? {
            ...source,
            page: async (...args: Parameters<typeof source.page>) => (await new Promise((r) => setTimeout(r, 300)), source.page(...args)),
          }
        : source;
    };
    try {
      service = await startTestService(participantsService, config, { history: slowHistory });
      await expect.poll(() => service!.consumers.every((c) => c.state() === 'following'), { timeout: 10_000 }).toBe(true);
      const rows = await service.deps.sql`select user_id from consented`;
      expect(rows.map((r) => r.user_id)).toEqual([userId]);
    } finally {
      await producers.close();
    }
  });
});
