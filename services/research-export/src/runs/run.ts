import type { DomainEvent } from '@sleepweave/event-store';
import type { ResearchRunSummary, ResearchRunTrigger } from '@sleepweave/contracts';

/** One research run: requested (nightly or by an admin), started, then finished or failed. */
export const runStreamId = (runId: string) => `research_run:${runId}`;

export type RunRequested = DomainEvent<
  'RunRequested',
  { runId: string; trigger: ResearchRunTrigger; requestedBy: string | null; requestedAt: string }
>;
export type RunStarted = DomainEvent<'RunStarted', { runId: string; startedAt: string }>;
export type RunFinished = DomainEvent<
  'RunFinished',
  { runId: string; finishedAt: string; durationMs: number; fileName: string; sizeBytes: number; summary: ResearchRunSummary }
>;
export type RunFailed = DomainEvent<'RunFailed', { runId: string; failedAt: string; durationMs: number | null; reason: string }>;
export type RunEvent = RunRequested | RunStarted | RunFinished | RunFailed;

export type RunState =
  | { status: 'unknown' }
  | { status: 'queued'; runId: string }
  | { status: 'running'; runId: string; startedAt: string }
  | { status: 'finished' | 'failed'; runId: string };

export const initialState = (): RunState => ({ status: 'unknown' });

export function evolve(state: RunState, event: RunEvent): RunState {
  switch (event.type) {
    case 'RunRequested':
      return { status: 'queued', runId: event.data.runId };
    case 'RunStarted':
      return { status: 'running', runId: event.data.runId, startedAt: event.data.startedAt };
    case 'RunFinished':
      return { status: 'finished', runId: event.data.runId };
    case 'RunFailed':
      return { status: 'failed', runId: event.data.runId };
    default:
      return state;
  }
}
