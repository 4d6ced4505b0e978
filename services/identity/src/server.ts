import { configOrExit, startService } from '@sleepweave/service-kit';
import { readIdentityConfig } from './config.ts';
import { identityService } from './service.ts';

await startService(identityService, configOrExit(readIdentityConfig));
