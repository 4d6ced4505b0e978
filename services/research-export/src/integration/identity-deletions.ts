import { defineConsumer } from '@sleepweave/service-kit';
import { recordAccountDeletion } from '../admin/commands.ts';
import type { ResearchExportContext } from '../context.ts';

/**
 * identity.user.deleted by an admin -> an entry of the admin audit trail (by whom, when).
 * Her data is removed by the user directory's own consumer; a deletion she asked for
 * herself, or one from before identity said who asked, is not an admin's act to record.
 */
export const identityDeletions = (ctx: ResearchExportContext) =>
  defineConsumer({
    name: 'research-export-deletion-audit',
    types: ['identity.user.deleted'],
    tables: [],
    async handle(tx, envelope) {
      const { via, deletedBy, deletedAt } = envelope.data;
      if (via !== 'admin') return;
      await recordAccountDeletion(
        ctx,
        tx,
        { eventId: envelope.id, deletedBy: deletedBy ?? null, at: new Date(deletedAt) },
        { correlationId: envelope.correlationId, causationId: envelope.id },
      );
    },
  });
