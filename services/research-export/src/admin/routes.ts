import {
  AdminAuditPage,
  AdminExportKind,
  AdminStats,
  AdminUserDetail,
  AdminUserPage,
  AdminUsersQuery,
  AuditQuery,
  MyDataAccessPage,
  Uuid,
} from '@sleepweave/contracts';
import { badRequest, notFound, requestMetadata, requireAdmin, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import { z } from 'zod';
import type { ResearchExportContext } from '../context.ts';
import { recordExport, recordParticipantView } from './commands.ts';
import { exportCsv, exportFileName } from './exports.ts';
import { adminStats, findUserDetail, listAudit, listMyDataAccess, listUsers, parseAuditCursor } from './queries.ts';

const NO_SUCH_USER = 'No such user.';

function cursorOf(cursor: string | undefined) {
  const parsed = parseAuditCursor(cursor);
  if (cursor && !parsed) throw badRequest('cursor is not one this server gave');
  return parsed;
}

/**
 * The admin dashboard (docs/admin.md): statistics, the user list, a user's detail (each
 * read recorded in the audit trail before it is sent), the CSV exports (recorded too), the
 * audit trail; and each participant's view of who read her data. The admin role is checked
 * here and in the gateway.
 */
export async function adminRoutes(app: ServiceApp, ctx: ResearchExportContext): Promise<void> {
  const { sql } = ctx;

  app.get('/api/admin/stats', { schema: { response: { 200: AdminStats } } }, async (request) => {
    requireAdmin(request);
    return adminStats(sql, new Date());
  });

  app.get('/api/admin/users', { schema: { querystring: AdminUsersQuery, response: { 200: AdminUserPage } } }, async (request) => {
    requireAdmin(request);
    return listUsers(sql, new Date(), request.query);
  });

  app.get(
    '/api/admin/user/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 200: AdminUserDetail } } },
    async (request) => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      if (!Uuid.safeParse(id).success) throw notFound(NO_SUCH_USER);
      const now = new Date();
      // Recorded first: no detail leaves without its audit entry.
      if (!(await recordParticipantView(ctx, { actorId: admin.sub, subjectId: id, now }, requestMetadata(request)))) {
        throw notFound(NO_SUCH_USER);
      }
      const detail = await findUserDetail(sql, now, id);
      if (!detail) throw notFound(NO_SUCH_USER); // deleted in between
      return detail;
    },
  );

  app.get('/api/admin/export/:kind', { schema: { params: z.object({ kind: AdminExportKind }) } }, async (request, reply) => {
    const admin = requireAdmin(request);
    const { kind } = request.params;
    const now = new Date();
    await recordExport(ctx, { actorId: admin.sub, kind, now }, requestMetadata(request));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName(kind, now)}"`)
      .send(exportCsv(sql, kind, now, request.log));
  });

  app.get('/api/admin/audit', { schema: { querystring: AuditQuery, response: { 200: AdminAuditPage } } }, async (request) => {
    requireAdmin(request);
    return listAudit(sql, { cursor: cursorOf(request.query.cursor), limit: request.query.limit });
  });

  app.get('/api/research/audit/me', { schema: { querystring: AuditQuery, response: { 200: MyDataAccessPage } } }, async (request) => {
    const { sub } = requireUser(request);
    return listMyDataAccess(sql, sub, { cursor: cursorOf(request.query.cursor), limit: request.query.limit });
  });
}
