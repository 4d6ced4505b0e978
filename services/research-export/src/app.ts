import type { ServiceApp } from '@sleepweave/service-kit';
import type { ResearchExportContext } from './context.ts';

/** The research-export HTTP plugin: registers routes; never listens. */
export async function researchExportApp(_app: ServiceApp, _ctx: ResearchExportContext): Promise<void> {}
