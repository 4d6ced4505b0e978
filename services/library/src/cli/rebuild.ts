import { rebuildCli } from '@sleepweave/service-kit';
import { readLibraryConfig } from '../config.ts';
import { libraryService } from '../service.ts';

await rebuildCli(libraryService, readLibraryConfig, process.argv.slice(2));
