import { rebuildProjectionsCli } from '@sleepweave/service-kit';
import { identityProjections } from '../context.ts';

await rebuildProjectionsCli('identity', identityProjections, process.argv.slice(2));
