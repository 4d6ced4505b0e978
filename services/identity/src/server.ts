import { configOrExit, exitIfUnreachable, startService } from '@sleepweave/service-kit';
import { readIdentityConfig } from './config.ts';
import { identityService } from './service.ts';

await startService(identityService, configOrExit(readIdentityConfig)).catch(exitIfUnreachable);
