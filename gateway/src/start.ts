import { sessionCookieNames } from '@sleepweave/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectBus } from '@sleepweave/bus';
import {
  createAccessTokenVerifier,
  createLogger,
  reachAtStart,
  releaseMemoryWhenIdle,
  remoteKeySet,
  type MemoryRelease,
  type ServiceApp,
} from '@sleepweave/service-kit';
import type { Logger } from 'pino';
import { buildGateway } from './app.ts';
import { followCommunityMessages, ThreadHub } from './community-live.ts';
import { upstreamsOf, type GatewayConfig } from './config.ts';
import { followRevocations, RevocationList } from './revocations.ts';
import { followRoleChanges, RoleChanges } from './role-changes.ts';
import { createSessionResolver } from './session.ts';

export interface RunningGateway {
  app: ServiceApp;
  /** Gives heap memory back when the process goes idle after a burst (service-kit's memory.ts). */
  memory: MemoryRelease;
  stop(): Promise<void>;
}

/** How long a gateway's start waits for its watches to go through what the bus held. */
export const WATCH_CATCH_UP_WAIT_MS = 10_000;

/**
 * The one way a gateway process starts (server.ts, and the tests that run whole systems):
 * the bus, its two watches (revoked sessions; community messages for its own sockets), the
 * session resolver and the HTTP app, listening on HOST:PORT; once idle after its start (and
 * after later bursts) it gives heap memory back.
 */
export async function startGateway(config: GatewayConfig, options: { logger?: Logger } = {}): Promise<RunningGateway> {
  const logger = options.logger ?? createLogger('gateway', config.LOG_LEVEL, config.LOG_FORMAT);
  const bus = await reachAtStart('NATS', 'NATS_URL', logger, () =>
    connectBus({ servers: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'gateway', logger }),
  );
  await bus.ensureStreams(['IDENTITY']);

  const memoryMs = config.REVOCATION_MEMORY_SECONDS * 1000;
  const revocations = new RevocationList(memoryMs);
  const following = await followRevocations(bus, revocations, memoryMs, logger);
  const roleChanges = new RoleChanges(memoryMs);
  const followingRoles = await followRoleChanges(bus, roleChanges, memoryMs, logger);
  // A session revoked, or a role changed, within the memory counts from the first request:
  // it listens once both have gone through what the bus held (a second at most). Should
  // NATS go away meanwhile, it listens after WATCH_CATCH_UP_WAIT_MS, its /health 503
  // (`catching_up`) until they have, so that a load balancer sends it nothing before.
  const caughtUp = await Promise.race([
    Promise.all([following.caughtUp, followingRoles.caughtUp]).then(() => true),
    sleep(WATCH_CATCH_UP_WAIT_MS, false, { ref: false }),
  ]);
  if (!caughtUp)
    logger.warn(
      { waitedMs: WATCH_CATCH_UP_WAIT_MS },
      'the watches of revoked sessions and role changes have not caught up; listening (degraded until they do)',
    );
  const verifier = createAccessTokenVerifier(remoteKeySet(config.IDENTITY_URL));
  const sessions = createSessionResolver({
    verifier,
    revocations,
    roleChanges,
    identityUrl: config.IDENTITY_URL,
    internalToken: config.INTERNAL_TOKEN,
    cookieNames: sessionCookieNames(config.APP_URL),
  });

  const threads = new ThreadHub({ communityUrl: config.COMMUNITY_URL, internalToken: config.INTERNAL_TOKEN, logger });
  const live = await followCommunityMessages(bus, threads, logger);

  const app = await buildGateway({
    config,
    logger,
    bus,
    sessions,
    revocations,
    threads,
    upstreams: upstreamsOf(config),
    watches: { revocations: following, 'role-changes': followingRoles, 'community-messages': live },
  });
  await reachAtStart(`its port ${config.HOST}:${config.PORT}`, 'PORT', logger, () => app.listen({ host: config.HOST, port: config.PORT }));
  const memory = releaseMemoryWhenIdle({ logger });

  let stopping: Promise<void> | null = null;
  return {
    app,
    memory,
    stop: () =>
      (stopping ??= (async () => {
        memory.stop();
        await app.close();
        await following.stop();
        await followingRoles.stop();
        await live.stop();
        await bus.close();
      })()),
  };
}
