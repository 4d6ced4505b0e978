import { rebuildProjectionsCli } from '@sleepweave/service-kit';
import { journalProjections } from '../context.ts';

await rebuildProjectionsCli('journal', journalProjections, process.argv.slice(2));
