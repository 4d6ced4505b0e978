import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { Button } from './ui/button';
import { EmptyState } from './ui/states';

export const NO_ACCESS_TITLE = 'No access';
export const NO_ACCESS_TEXT = 'This page is for study administrators. Your account does not have the admin role.';

/** A participant (or an admin whose role was just revoked) on an admin page: said plainly, with a way back; the same on every admin page. */
export function NoAccess() {
  return (
    <EmptyState
      icon={ShieldAlert}
      title={NO_ACCESS_TITLE}
      text={NO_ACCESS_TEXT}
      action={
        <Button asChild variant="outline">
          <Link to={paths.home}>Go to home</Link>
        </Button>
      }
    />
  );
}
