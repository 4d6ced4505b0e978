import { rebuildCli } from '@sleepweave/service-kit';
import { readJournalConfig } from '../config.ts';
import { journalService } from '../service.ts';

await rebuildCli(journalService, readJournalConfig, process.argv.slice(2));
