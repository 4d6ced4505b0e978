import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
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
          <p className="flex items-center gap-2 text-night-600">
            <Spinner className="size-5" label="Loading stats" /> Loading stats...
          </p>
        ) : stats.data === undefined ? (
          <div className="grid justify-items-start gap-2">
            <p className="text-night-700">The stats could not be loaded.</p>
            <Button variant="link" onClick={() => void stats.refetch()}>
              Try again
            </Button>
          </div>
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
