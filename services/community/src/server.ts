import { configOrExit, exitIfUnreachable, startService } from '@sleepweave/service-kit';
import { readCommunityConfig } from './config.ts';
import { communityService } from './service.ts';

await startService(communityService, configOrExit(readCommunityConfig)).catch(exitIfUnreachable);
