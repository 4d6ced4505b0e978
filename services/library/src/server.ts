import { configOrExit, exitIfUnreachable, startService } from '@sleepweave/service-kit';
import { readLibraryConfig } from './config.ts';
import { libraryService } from './service.ts';

await startService(libraryService, configOrExit(readLibraryConfig)).catch(exitIfUnreachable);
