import { rebuildCli } from '@sleepweave/service-kit';
import { readResearchExportConfig } from '../config.ts';
import { researchExportService } from '../service.ts';

await rebuildCli(researchExportService, readResearchExportConfig, process.argv.slice(2));
