import { rebuildCli } from '@sleepweave/service-kit';
import { readCommunityConfig } from '../config.ts';
import { communityService } from '../service.ts';

await rebuildCli(communityService, readCommunityConfig, process.argv.slice(2));
