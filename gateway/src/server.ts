import { connectBus } from '@sleepweave/bus';
import { createAccessTokenVerifier, createLogger, onShutdownSignal, remoteKeySet } from '@sleepweave/service-kit';
import { buildGateway } from './app.ts';
import { followCommunityMessages, ThreadHub } from './community-live.ts';
import { readGatewayConfig, upstreamsOf } from './config.ts';
import { followRevocations, RevocationList } from './revocations.ts';
import { createSessionResolver } from './session.ts';

const config = readGatewayConfig();
const logger = createLogger('gateway', config.LOG_LEVEL, config.LOG_FORMAT);
const bus = await connectBus({ servers: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'gateway', logger });
await bus.ensureStreams(['IDENTITY']);

const memoryMs = config.REVOCATION_MEMORY_SECONDS * 1000;
const revocations = new RevocationList(memoryMs);
const following = await followRevocations(bus, revocations, memoryMs, logger);
const verifier = createAccessTokenVerifier(remoteKeySet(config.IDENTITY_URL));
const sessions = createSessionResolver({ verifier, revocations, identityUrl: config.IDENTITY_URL, internalToken: config.INTERNAL_TOKEN });

// Each gateway process follows the community's messages for its own sockets.
const threads = new ThreadHub({ communityUrl: config.COMMUNITY_URL, internalToken: config.INTERNAL_TOKEN, logger });
const live = await followCommunityMessages(bus, threads, logger);

const app = await buildGateway({ config, logger, bus, sessions, revocations, threads, upstreams: upstreamsOf(config) });
await app.listen({ host: config.HOST, port: config.PORT });

onShutdownSignal(async () => {
  await app.close();
  await following.stop();
  await live.stop();
  await bus.close();
}, logger);
