import { CircleAlert, LoaderCircle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import type { useSleepLogs } from '../api/get-sleep-logs';

/** A screen's loading state, in the spec's words ('Loading consent status...'). */
export function LoadingState({ text }: { text: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] flex-col items-center justify-center gap-3 px-6 text-center text-night-700">
      <LoaderCircle aria-hidden="true" className="size-8 motion-safe:animate-spin" />
      <p className="text-lg">{text}</p>
    </div>
  );
}

export function ErrorState({ title, text, onRetry, retrying }: { title: string; text: ReactNode; onRetry: () => void; retrying: boolean }) {
  return (
    <div role="alert" className="mx-auto flex min-h-[40vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
      <CircleAlert aria-hidden="true" className="size-10 text-rose-700" />
      <h2 className="text-2xl font-semibold text-night-950">{title}</h2>
      <p className="text-base text-night-700">{text}</p>
      <Button onClick={onRetry} pending={retrying}>
        Try again
      </Button>
    </div>
  );
}

/**
 * The loading, error and empty states of a screen built on her sleep logs ('No Sleep
 * Data Yet' with a Log Sleep button); null once there are logs to show.
 */
export function SleepLogsStatus({
  logs,
  icon: Icon,
  emptyText,
}: {
  logs: ReturnType<typeof useSleepLogs>;
  icon: LucideIcon;
  emptyText: string;
}): ReactNode {
  if (logs.isPending) return <LoadingState text="Loading your sleep logs..." />;
  // A failed background reload keeps the list it has: the error is for a list never loaded.
  if (logs.data === undefined) {
    return (
      <ErrorState
        title="Failed to fetch sleep logs"
        text="Please check your connection and try again."
        onRetry={() => void logs.refetch()}
        retrying={logs.isFetching}
      />
    );
  }
  if (logs.data.length > 0) return null;
  return (
    <Card className="grid justify-items-center gap-4 p-10 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-night-100 text-night-700">
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <h2 className="text-2xl font-semibold text-night-950">No Sleep Data Yet</h2>
      <p className="max-w-md text-base text-night-700">{emptyText}</p>
      <Button asChild size="lg">
        <Link to={paths.sleep.log}>Log Sleep</Link>
      </Button>
    </Card>
  );
}
