import { configOrExit, exitIfUnreachable, startService } from '@sleepweave/service-kit';
import { readStudyConfig } from './config.ts';
import { studyService } from './service.ts';

await startService(studyService, configOrExit(readStudyConfig)).catch(exitIfUnreachable);
