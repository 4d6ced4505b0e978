import { useSearchParams } from 'react-router';
import { ResetPasswordScreen } from '../../features/reset-password/components/reset-password-screen';

/** /reset-password?token=...: public, reached from the link in the e-mail. */
export function Component() {
  const [params] = useSearchParams();
  return <ResetPasswordScreen token={params.get('token')?.trim() ?? ''} />;
}
