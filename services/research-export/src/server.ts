import { configOrExit, exitIfUnreachable, startService } from '@sleepweave/service-kit';
import { readResearchExportConfig } from './config.ts';
import { researchExportService } from './service.ts';

await startService(researchExportService, configOrExit(readResearchExportConfig)).catch(exitIfUnreachable);
