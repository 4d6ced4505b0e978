import { configOrExit, exitIfUnreachable, startService } from '@sleepweave/service-kit';
import { readJournalConfig } from './config.ts';
import { journalService } from './service.ts';

await startService(journalService, configOrExit(readJournalConfig)).catch(exitIfUnreachable);
