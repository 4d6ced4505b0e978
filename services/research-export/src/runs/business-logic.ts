import type { ResearchRunSummary, ResearchRunTrigger } from '@sleepweave/contracts';
import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type RunEvent, type RunState } from './run.ts';

export type RunCommand =
  | { type: 'RequestRun'; data: { runId: string; trigger: ResearchRunTrigger; requestedBy: string | null; now: Date } }
  | { type: 'StartRun'; data: { now: Date } }
  | { type: 'FinishRun'; data: { now: Date; fileName: string; sizeBytes: number; summary: ResearchRunSummary } }
  | { type: 'FailRun'; data: { now: Date; reason: string } };

/** A run moves one way: queued, running, then finished or failed; anything else is a bug in the caller. */
export class RunNotInState extends Error {
  constructor(expected: string, actual: string) {
    super(`the run is ${actual}, not ${expected}`);
  }
}

export function decide(command: RunCommand, state: RunState): RunEvent[] {
  switch (command.type) {
    case 'RequestRun': {
      if (state.status !== 'unknown') return []; // the same request again
      const { runId, trigger, requestedBy, now } = command.data;
      return [{ type: 'RunRequested', data: { runId, trigger, requestedBy, requestedAt: now.toISOString() } }];
    }
    case 'StartRun':
      if (state.status !== 'queued') throw new RunNotInState('queued', state.status);
      return [{ type: 'RunStarted', data: { runId: state.runId, startedAt: command.data.now.toISOString() } }];
    case 'FinishRun': {
      if (state.status !== 'running') throw new RunNotInState('running', state.status);
      const { now, fileName, sizeBytes, summary } = command.data;
      const durationMs = now.getTime() - new Date(state.startedAt).getTime();
      return [
        { type: 'RunFinished', data: { runId: state.runId, finishedAt: now.toISOString(), durationMs, fileName, sizeBytes, summary } },
      ];
    }
    case 'FailRun': {
      if (state.status !== 'queued' && state.status !== 'running') throw new RunNotInState('queued or running', state.status);
      const { now, reason } = command.data;
      const durationMs = state.status === 'running' ? now.getTime() - new Date(state.startedAt).getTime() : null;
      return [{ type: 'RunFailed', data: { runId: state.runId, failedAt: now.toISOString(), durationMs, reason } }];
    }
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const runDecider: Decider<RunCommand, RunState, RunEvent> = { decide, evolve, initialState };
