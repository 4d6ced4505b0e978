import { defineProjection } from '@sleepweave/event-store';
import type { AuditEvent } from './audit.ts';

/** The `admin_audit` read model: the audit trail, ids only (names are looked up when listed). */
export const auditProjection = defineProjection<AuditEvent>({
  name: 'admin-audit',
  tables: ['admin_audit'],
  handles: ['AdminAuditRecorded'],
  async apply(tx, event) {
    const d = event.data;
    await tx`
      insert into admin_audit (id, action, at, actor_id, subject_id)
      values (${d.auditId}, ${d.action}, ${d.at}, ${d.actorId}, ${d.subjectId})
      on conflict (id) do nothing`;
  },
});
