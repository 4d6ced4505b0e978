import { defineProjection } from '@sleepweave/event-store';
import type { RunEvent } from './run.ts';

/** The `research_runs` read model: every run and where it stands. */
export const runsProjection = defineProjection<RunEvent>({
  name: 'research-runs',
  tables: ['research_runs'],
  handles: ['RunRequested', 'RunStarted', 'RunFinished', 'RunFailed'],
  async apply(tx, event) {
    switch (event.type) {
      case 'RunRequested': {
        const d = event.data;
        await tx`
          insert into research_runs (id, trigger, requested_by, status, requested_at)
          values (${d.runId}, ${d.trigger}, ${d.requestedBy}, 'queued', ${d.requestedAt})`;
        return;
      }
      case 'RunStarted':
        await tx`update research_runs set status = 'running', started_at = ${event.data.startedAt} where id = ${event.data.runId}`;
        return;
      case 'RunFinished': {
        const d = event.data;
        await tx`
          update research_runs set status = 'finished', finished_at = ${d.finishedAt}, duration_ms = ${d.durationMs},
            file_name = ${d.fileName}, size_bytes = ${d.sizeBytes}, summary = ${tx.json(d.summary as never)}
          where id = ${d.runId}`;
        return;
      }
      case 'RunFailed': {
        const d = event.data;
        await tx`
          update research_runs set status = 'failed', finished_at = ${d.failedAt}, duration_ms = ${d.durationMs}, failure = ${d.reason}
          where id = ${d.runId}`;
        return;
      }
    }
  },
});
