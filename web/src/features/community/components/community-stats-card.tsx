import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { useCommunityStats } from '../api/get-stats';

/** Community Stats from the server's data (definitions in docs/community.md). */
export function CommunityStatsCard() {
  const stats = useCommunityStats();
  const rows = stats.data
    ? ([
        ['Active Members', stats.data.activeMembers, 'Members who posted in the last 30 days'],
        ['Discussions Today', stats.data.discussionsToday, 'Threads with a new message today'],
        ['Sleep Studies Shared', stats.data.sleepStudiesShared, 'Participants who completed the 42-day study'],
      ] as const)
    : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Community Stats</CardTitle>
      </CardHeader>
      <CardContent>
        {stats.isPending ? (
          <LoadingState inline text="Loading stats..." className="py-0" />
        ) : stats.data === undefined ? (
          <ErrorState
            inline
            text="The stats could not be loaded."
            error={stats.error}
            onRetry={() => void stats.refetch()}
            retrying={stats.isFetching}
            className="p-4"
          />
        ) : (
          <dl className="grid gap-3">
            {rows.map(([label, value, title]) => (
              <div key={label} className="flex items-baseline justify-between gap-3" title={title}>
                <dt className="text-night-700">{label}</dt>
                <dd className="text-xl font-semibold text-night-950 tabular-nums">{value.toLocaleString('en-US')}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
