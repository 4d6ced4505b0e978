import type { AdminStats } from '@sleepweave/contracts';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { format } from 'date-fns';
import { Activity, BookOpenText, Moon, RefreshCw, Users, type LucideIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CHECK_CONNECTION, ErrorState, errorText } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { adminStatsQueryKey, useAdminStats } from '../api/get-admin-stats';
import { adminUsersQueryKey } from '../api/get-admin-users';

function Tile({ icon: Icon, label, value, note }: { icon: LucideIcon; label: string; value: string; note?: string }) {
  return (
    <Card className="flex items-start gap-4 p-4 sm:p-5">
      <span className="hidden size-12 shrink-0 place-items-center rounded-2xl bg-night-100 text-night-700 sm:grid">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <div className="grid gap-0.5">
        <p className="text-base text-night-700">{label}</p>
        <p className="text-2xl font-semibold text-night-950 tabular-nums sm:text-3xl">{value}</p>
        {note ? <p className="text-sm text-night-600">{note}</p> : null}
      </div>
    </Card>
  );
}

const number = (value: number | undefined) => (value === undefined ? '--' : value.toLocaleString('en-US'));

/** The four tiles of the spec: Total Users, Active Users, Sleep Logs, Journal Entries. */
export function StatTiles() {
  const stats = useAdminStats();
  if (stats.isError && !stats.data) {
    return (
      <ErrorState
        inline
        title="Failed to load the statistics"
        text={CHECK_CONNECTION}
        error={stats.error}
        onRetry={() => void stats.refetch()}
        retrying={stats.isFetching}
      />
    );
  }
  const data: AdminStats | undefined = stats.data;
  return (
    <div className="grid gap-2">
      {data ? <Freshness readAt={stats.dataUpdatedAt} /> : null}
      <section aria-label="Statistics" aria-busy={stats.isPending} className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Tile icon={Users} label="Total Users" value={number(data?.totalUsers)} />
        <Tile
          icon={Activity}
          label="Active Users"
          value={number(data?.activeUsers)}
          note={`Logged a night or a journal entry in the last ${data?.activeDays ?? 7} days`}
        />
        <Tile icon={Moon} label="Sleep Logs" value={number(data?.totalSleepLogs)} />
        <Tile icon={BookOpenText} label="Journal Entries" value={number(data?.totalJournalEntries)} />
      </section>
    </div>
  );
}

/**
 * When the figures were read, and Refresh: the dashboard reads them once (the spec: no
 * refetch on window focus), and a coordinator who keeps it open all day could not tell
 * they were hours old (found by an outside tester). Refresh reads the tiles and the list
 * again, not the open detail (a read of it is recorded in the audit trail).
 */
function Freshness({ readAt }: { readAt: number }) {
  const queryClient = useQueryClient();
  const refreshing = useIsFetching({ queryKey: adminStatsQueryKey }) + useIsFetching({ queryKey: adminUsersQueryKey }) > 0;
  const refresh = async () => {
    const keys = [adminStatsQueryKey, adminUsersQueryKey];
    await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    // a failed read keeps the figures it had (and their time): said, or she would take them as read now
    const failed = keys
      .flatMap((queryKey) => queryClient.getQueryCache().findAll({ queryKey, type: 'active' }))
      .find((query) => query.state.status === 'error');
    if (failed) {
      toast({
        variant: 'destructive',
        title: 'The figures could not be refreshed',
        description: String(errorText(CHECK_CONNECTION, failed.state.error)),
      });
    }
  };
  return (
    <div className="flex flex-wrap items-center justify-end gap-x-3 gap-y-1">
      <p className="text-sm text-night-600">Figures as of {format(readAt, 'MMM d, h:mm a')}</p>
      <Button variant="ghost" onClick={() => void refresh()} pending={refreshing}>
        {refreshing ? null : <RefreshCw aria-hidden="true" className="size-4" />}
        Refresh
      </Button>
    </div>
  );
}
