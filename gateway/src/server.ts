import { connectBus } from '@sleepweave/bus';
import { createAccessTokenVerifier, createLogger, onShutdownSignal, remoteKeySet } from '@sleepweave/service-kit';
import { buildGateway } from './app.ts';
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
const sessions = createSessionResolver({ verifier, revocations, identityUrl: config.IDENTITY_URL });

const app = await buildGateway({ config, logger, bus, sessions, revocations, upstreams: upstreamsOf(config) });
await app.listen({ host: config.HOST, port: config.PORT });

onShutdownSignal(async () => {
  await app.close();
  await following.stop();
  await bus.close();
}, logger);
