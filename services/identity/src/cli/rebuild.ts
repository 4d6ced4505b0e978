import { rebuildCli } from '@sleepweave/service-kit';
import { readIdentityConfig } from '../config.ts';
import { identityService } from '../service.ts';

await rebuildCli(identityService, readIdentityConfig, process.argv.slice(2));
