import { rebuildProjectionsCli } from '@sleepweave/service-kit';
import { communityProjections } from '../context.ts';

await rebuildProjectionsCli('community', communityProjections, process.argv.slice(2));
