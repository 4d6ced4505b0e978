import { rebuildCli } from '@sleepweave/service-kit';
import { readStudyConfig } from '../config.ts';
import { studyService } from '../service.ts';

await rebuildCli(studyService, readStudyConfig, process.argv.slice(2));
