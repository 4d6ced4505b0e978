import { Navigate, useLocation } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { AuthScreen } from '../../features/auth/components/auth-screen';
import { useUser } from '../../lib/auth';
import { afterSignIn } from '../../lib/sign-in-return';

/**
 * /auth: public; a signed-in user goes straight to /dashboard, or back to the page her
 * session ended on (lib/sign-in-return.ts): what signing in here does too (registering
 * clears that page first: it goes to /dashboard).
 */
export function Component() {
  const user = useUser();
  const location = useLocation();
  if (user.isPending) return <FullPageSpinner />;
  // the spinner while the next page's code loads (on a slow link the page was blank for seconds)
  if (user.data)
    return (
      <>
        <FullPageSpinner />
        <Navigate to={afterSignIn(location.state, user.data)} replace />
      </>
    );
  return <AuthScreen />;
}
