import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { useCommunityStats } from '../api/get-stats';
import { statCaptions } from '../utils/stat-captions';

/** Community Stats from the server's data (definitions in docs/community.md), each with a line that reads true at any number. */
export function CommunityStatsCard() {
  const stats = useCommunityStats();
  const captions = stats.data ? statCaptions(stats.data) : null;
  const rows = stats.data
    ? ([
        ['Active Members', stats.data.activeMembers, captions!.activeMembers],
        ['Discussions Today', stats.data.discussionsToday, captions!.discussionsToday],
        ['Sleep Studies Shared', stats.data.sleepStudiesShared, captions!.sleepStudiesShared],
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
          <dl className="grid gap-4">
            {rows.map(([label, value, caption]) => (
              <div key={label} className="grid grid-cols-[1fr_auto] items-baseline gap-x-3 gap-y-0.5">
                <dt className="text-night-700">{label}</dt>
                <dd className="text-xl font-semibold text-night-950 tabular-nums">{value.toLocaleString('en-US')}</dd>
                <dd className="col-span-2 text-sm text-night-600">{caption}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
