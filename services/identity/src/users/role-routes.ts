import { SetRoleRequest, SetRoleResponse, Uuid, type Role } from '@sleepweave/contracts';
import { requestMetadata, requireAdmin, type ServiceApp } from '@sleepweave/service-kit';
import { z } from 'zod';
import type { IdentityContext } from '../context.ts';
import { changeRole, type RoleChange } from './commands.ts';

function roleMessage(role: Role, result: RoleChange): string {
  if (result === 'unchanged') return role === 'admin' ? 'This user is already an admin.' : 'This user is not an admin.';
  return role === 'admin' ? 'The admin role has been granted.' : 'The admin role has been revoked.';
}

/**
 * PUT /api/admin/users/{id}/role `{ role }`: an admin grants or revokes the admin role (the
 * gateway checks the role too). The new role reaches her access token at once: every
 * gateway follows identity.user.role_granted and renews a token whose role is no longer hers
 * (docs/admin.md).
 */
export async function roleRoutes(app: ServiceApp, ctx: IdentityContext): Promise<void> {
  app.put(
    '/api/admin/users/:id/role',
    { schema: { params: z.object({ id: Uuid }), body: SetRoleRequest, response: { 200: SetRoleResponse } } },
    async (request) => {
      const admin = requireAdmin(request);
      const { role } = request.body;
      const result = await changeRole(ctx, { userId: request.params.id, role, by: admin.sub }, requestMetadata(request));
      return { message: roleMessage(role, result), role };
    },
  );
}
