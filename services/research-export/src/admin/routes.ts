import {
  ADMIN_USERS_LIMIT,
  AdminAuditList,
  AdminExportKind,
  AdminStats,
  AdminUserDetail,
  AdminUserList,
  AdminUsersQuery,
  AUDIT_LIMIT,
  MyDataAccessList,
  Uuid,
} from '@sleepweave/contracts';
import {
  cursorParam,
  decodeCursor,
  limitParam,
  NEXT_CURSOR_HEADER,
  notFound,
  requestMetadata,
  requireAdmin,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import { z } from 'zod';
import type { ResearchExportContext } from '../context.ts';
import { AUDITED_READ_HAS_NO_HEAD, EXPORT_ACTIONS, recordExport, recordParticipantView } from './commands.ts';
import { exportCsv, exportFileName, timeZoneOf } from './exports.ts';
import { AuditCursor, findUserDetail, listAudit, listMyDataAccess, listUsers } from './queries.ts';
import { adminStats } from './stats.ts';

const NO_SUCH_USER = 'No such user.';

/** Keyset paging (docs/architecture.md "Paging"): a clamped `limit` and the cursor of X-Next-Cursor. */
// a cursor of the list by name holds two names (up to 100 characters each)
const UsersQuery = AdminUsersQuery.extend({ limit: limitParam(ADMIN_USERS_LIMIT, ADMIN_USERS_LIMIT), cursor: cursorParam(2_000) });
const AuditQuery = z.object({ limit: limitParam(50, AUDIT_LIMIT), cursor: cursorParam() });
const auditCursor = (cursor: string | undefined) => (cursor === undefined ? undefined : decodeCursor(cursor, AuditCursor));

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

  app.get('/api/admin/users', { schema: { querystring: UsersQuery, response: { 200: AdminUserList } } }, async (request, reply) => {
    requireAdmin(request);
    const page = await listUsers(sql, new Date(), request.query);
    if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.items;
  });

  app.get(
    '/api/admin/user/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 200: AdminUserDetail } }, exposeHeadRoute: AUDITED_READ_HAS_NO_HEAD },
    async (request) => {
      const admin = requireAdmin(request);
      const parsed = Uuid.safeParse(request.params.id); // in lower case: her audit stream is named by it
      if (!parsed.success) throw notFound(NO_SUCH_USER);
      const id = parsed.data;
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

  app.get(
    '/api/admin/export/:kind',
    { schema: { params: z.object({ kind: AdminExportKind }) }, exposeHeadRoute: AUDITED_READ_HAS_NO_HEAD },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const { kind } = request.params;
      const now = new Date();
      await recordExport(ctx, { actorId: admin.sub, action: EXPORT_ACTIONS[kind], now }, requestMetadata(request));
      const fileName = exportFileName(kind, now, await timeZoneOf(sql, admin.sub));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(exportCsv(sql, kind, now, request.log));
    },
  );

  app.get('/api/admin/audit', { schema: { querystring: AuditQuery, response: { 200: AdminAuditList } } }, async (request, reply) => {
    requireAdmin(request);
    const page = await listAudit(sql, { cursor: auditCursor(request.query.cursor), limit: request.query.limit });
    if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.items;
  });

  app.get(
    '/api/research/audit/me',
    { schema: { querystring: AuditQuery, response: { 200: MyDataAccessList } } },
    async (request, reply) => {
      const { sub } = requireUser(request);
      const page = await listMyDataAccess(sql, sub, { cursor: auditCursor(request.query.cursor), limit: request.query.limit });
      if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
      return page.items;
    },
  );
}
