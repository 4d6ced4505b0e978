import { AuditScreen } from '../../features/admin/components/audit-screen';

/** /admin/audit: guarded; the audit trail (a participant is told it is not for her). */
export function Component() {
  return <AuditScreen />;
}
