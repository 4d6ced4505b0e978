import { defineProjection } from '@sleepweave/event-store';
import type { AuditEvent } from './audit.ts';

/** The `admin_audit` read model: the audit trail, ids only (names are looked up when listed). */
export const auditProjection = defineProjection<AuditEvent>({
  name: 'admin-audit',
  tables: ['admin_audit'],
  handles: ['AdminAuditRecorded'],
  async apply(tx, event) {
    const d = event.data;
    // an entry from before `byCommandLine` was recorded: a role change with no actor
    const byCommandLine = d.byCommandLine ?? (d.action.startsWith('role_') && d.actorId === null);
    await tx`
      insert into admin_audit (id, action, at, actor_id, subject_id, by_command_line, run_id, run_file_name, run_finished_at)
      values (${d.auditId}, ${d.action}, ${d.at}, ${d.actorId}, ${d.subjectId}, ${byCommandLine},
        ${d.run?.id ?? null}, ${d.run?.fileName ?? null}, ${d.run?.finishedAt ?? null})
      on conflict (id) do nothing`;
  },
});
