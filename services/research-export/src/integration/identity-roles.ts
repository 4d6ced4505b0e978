import { defineConsumer, lockDirectoryRowForEvent } from '@sleepweave/service-kit';
import { recordRoleChange } from '../admin/commands.ts';
import type { ResearchExportContext } from '../context.ts';

/**
 * identity.user.role_granted -> an entry of the admin audit trail (granted or revoked, by
 * whom). Her role itself is kept by the user directory's own consumer.
 */
export const identityRoleChanges = (ctx: ResearchExportContext) =>
  defineConsumer({
    name: 'research-export-role-audit',
    types: ['identity.user.role_granted'],
    tables: [],
    async handle(tx, envelope) {
      const { userId, role, grantedAt, grantedBy, via } = envelope.data;
      // Deleted meanwhile: nothing; her registration not here yet: retried until it is.
      if (!(await lockDirectoryRowForEvent(tx, userId))) return;
      await recordRoleChange(
        ctx,
        tx,
        { eventId: envelope.id, userId, role, grantedBy: grantedBy ?? null, via, at: new Date(grantedAt) },
        { correlationId: envelope.correlationId, causationId: envelope.id },
      );
    },
  });
