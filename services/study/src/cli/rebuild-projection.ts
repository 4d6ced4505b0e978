import { rebuildProjectionsCli } from '@sleepweave/service-kit';
import { studyProjections } from '../context.ts';

await rebuildProjectionsCli('study', studyProjections, process.argv.slice(2));
