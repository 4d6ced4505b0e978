import { DeleteAccountRequest, LAST_ADMIN_DELETION_MESSAGE, MessageResponse, Uuid } from '@sleepweave/contracts';
import {
  conflict,
  forbidden,
  notFound,
  requestMetadata,
  requireAdmin,
  requireUser,
  unauthorized,
  type ServiceApp,
} from '@sleepweave/service-kit';
import { z } from 'zod';
import type { IdentityContext } from '../context.ts';
import { clearSessionCookies } from '../sessions/cookies.ts';
import { verifyPassword } from '../users/passwords.ts';
import { findUserById } from '../users/queries.ts';
import { perUserLimit, wrongPassword } from '../users/routes.ts';
import { deleteUser } from './commands.ts';

export const ACCOUNT_DELETED = 'Your account and all your data have been deleted.';

export async function accountDeletionRoutes(app: ServiceApp, ctx: IdentityContext): Promise<void> {
  /** She deletes her own account, confirming with her password; her cookies are cleared. */
  app.delete(
    '/api/account',
    { schema: { body: DeleteAccountRequest, response: { 200: MessageResponse } }, config: perUserLimit(10) },
    async (request, reply) => {
      const { sub } = requireUser(request);
      const row = await findUserById(ctx.sql, sub);
      if (!row) throw unauthorized();
      if (!(await verifyPassword(row.password_hash, request.body.password))) {
        throw wrongPassword('That password is not correct. Your account has not been deleted.');
      }
      const result = await deleteUser(ctx, sub, 'self', requestMetadata(request), { verifiedHash: row.password_hash });
      if (result === 'no_such_user') throw unauthorized();
      if (result === 'password_changed') throw wrongPassword('That password is not correct. Your account has not been deleted.');
      if (result === 'last_admin') throw conflict(LAST_ADMIN_DELETION_MESSAGE);
      clearSessionCookies(reply, ctx);
      return { message: ACCOUNT_DELETED };
    },
  );

  /** An admin deletes a user (the gateway checks the role too). */
  app.delete(
    '/api/admin/users/:id',
    { schema: { params: z.object({ id: Uuid }), response: { 200: MessageResponse } } },
    async (request) => {
      const admin = requireAdmin(request);
      const result = await deleteUser(ctx, request.params.id, 'admin', requestMetadata(request), { actorId: admin.sub });
      if (result === 'actor_gone') throw unauthorized();
      if (result === 'actor_not_admin') throw forbidden();
      if (result === 'no_such_user') throw notFound('No such user.');
      if (result === 'last_admin') throw conflict(LAST_ADMIN_DELETION_MESSAGE);
      return { message: 'The user and all their data have been deleted.' };
    },
  );
}
