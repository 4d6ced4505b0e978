import { configOrExit, createLogger, exitIfUnreachable, onShutdownSignal } from '@sleepweave/service-kit';
import { readGatewayConfig } from './config.ts';
import { startGateway } from './start.ts';

const config = configOrExit(readGatewayConfig);
const logger = createLogger('gateway', config.LOG_LEVEL, config.LOG_FORMAT);
const gateway = await startGateway(config, { logger }).catch(exitIfUnreachable);
onShutdownSignal(gateway.stop, logger);
