import type { SleepLog } from '@sleepweave/contracts';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { CHECK_CONNECTION, EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';

/**
 * The loading, error and empty states of a screen built on her sleep logs ('No Sleep
 * Data Yet' with a Log Sleep button); null once there are logs to show.
 */
export function SleepLogsStatus({
  logs,
  icon,
  emptyText,
}: {
  logs: {
    isPending: boolean;
    data: SleepLog[] | undefined;
    error: unknown;
    isFetching: boolean;
    refetch: () => Promise<unknown>;
  };
  icon: LucideIcon;
  emptyText: string;
}): ReactNode {
  if (logs.isPending) return <LoadingState text="Loading your sleep logs..." />;
  // A failed background reload keeps the list it has: the error is for a list never loaded.
  if (logs.data === undefined) {
    return (
      <ErrorState
        title="Failed to fetch sleep logs"
        text={CHECK_CONNECTION}
        error={logs.error}
        onRetry={() => void logs.refetch()}
        retrying={logs.isFetching}
      />
    );
  }
  if (logs.data.length > 0) return null;
  return (
    <EmptyState
      icon={icon}
      title="No Sleep Data Yet"
      text={emptyText}
      action={
        <Button asChild size="lg">
          <Link to={paths.sleep.log}>Log Sleep</Link>
        </Button>
      }
    />
  );
}
