import { Navigate } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { AuthScreen } from '../../features/auth/components/auth-screen';
import { useUser } from '../../lib/auth';

/** /auth: public; a signed-in user goes straight to /dashboard. */
export function Component() {
  const user = useUser();
  if (user.isPending) return <FullPageSpinner />;
  if (user.data) return <Navigate to={paths.dashboard} replace />;
  return <AuthScreen />;
}
