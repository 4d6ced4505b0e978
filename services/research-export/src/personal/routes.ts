import { notFound, personalExportRoute, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { ResearchExportContext } from '../context.ts';
import { sendZip } from '../runs/routes.ts';

export const NOT_ENROLLED_MESSAGE = 'You have not joined the sleep study yet, so there is nothing to export.';

/** Her own research export (the dashboard's Research Export card): her data only. */
export async function personalRoutes(app: ServiceApp, ctx: ResearchExportContext): Promise<void> {
  app.get('/api/research/export', personalExportRoute(ctx.config.PERSONAL_EXPORTS_PER_10_MINUTES), async (request, reply) => {
    const { sub } = requireUser(request);
    // the zip's libraries load with the first export, not at start
    const { buildPersonalZip, NotEnrolled } = await import('../export/personal-zip.ts');
    try {
      const { zip, fileName } = await buildPersonalZip(ctx, sub, new Date());
      return sendZip(reply, fileName, zip);
    } catch (err) {
      if (err instanceof NotEnrolled) throw notFound(NOT_ENROLLED_MESSAGE);
      throw err;
    }
  });
}
