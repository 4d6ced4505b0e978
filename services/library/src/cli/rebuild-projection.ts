import { rebuildProjectionsCli } from '@sleepweave/service-kit';
import { libraryProjections } from '../context.ts';

await rebuildProjectionsCli('library', libraryProjections, process.argv.slice(2));
