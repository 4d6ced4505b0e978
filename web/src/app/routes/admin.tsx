import { AdminScreen } from '../../features/admin/components/admin-screen';

/** /admin: guarded; the admin dashboard (a participant is told it is not for her). */
export function Component() {
  return <AdminScreen />;
}
