import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import { runDecider, RunNotInState } from './business-logic.ts';
import type { RunEvent } from './run.ts';

const runId = '4f1b2c3d-1111-4222-8333-944455556666';
const t0 = new Date('2026-11-22T02:00:00.000Z');
const t1 = new Date('2026-11-22T02:00:03.500Z');
const requested: RunEvent = {
  type: 'RunRequested',
  data: { runId, trigger: 'schedule', requestedBy: null, requestedAt: t0.toISOString() },
};
const started: RunEvent = { type: 'RunStarted', data: { runId, startedAt: t0.toISOString() } };
const summary = { participantsIncluded: 2, participantsExcluded: 1, nights: 80, qaHeadline: 'ok', primary: [] };

describe('research run decider', () => {
  const spec = deciderSpec(runDecider);

  it('is requested once', () => {
    spec
      .given([])
      .when({ type: 'RequestRun', data: { runId, trigger: 'schedule', requestedBy: null, now: t0 } })
      .then([requested]);
    spec
      .given([requested])
      .when({ type: 'RequestRun', data: { runId, trigger: 'schedule', requestedBy: null, now: t1 } })
      .then([]);
  });

  it('starts when queued, and finishes with its duration', () => {
    spec
      .given([requested])
      .when({ type: 'StartRun', data: { now: t0 } })
      .then([started]);
    spec
      .given([requested, started])
      .when({ type: 'FinishRun', data: { now: t1, fileName: 'f.zip', sizeBytes: 10, summary } })
      .then([
        {
          type: 'RunFinished',
          data: { runId, finishedAt: t1.toISOString(), durationMs: 3_500, fileName: 'f.zip', sizeBytes: 10, summary },
        },
      ]);
  });

  it('fails with its reason, from queued (no duration) or running', () => {
    spec
      .given([requested])
      .when({ type: 'FailRun', data: { now: t1, reason: 'interrupted' } })
      .then([{ type: 'RunFailed', data: { runId, failedAt: t1.toISOString(), durationMs: null, reason: 'interrupted' } }]);
    spec
      .given([requested, started])
      .when({ type: 'FailRun', data: { now: t1, reason: 'disk full' } })
      .then([{ type: 'RunFailed', data: { runId, failedAt: t1.toISOString(), durationMs: 3_500, reason: 'disk full' } }]);
  });

  it('refuses to go backwards', () => {
    expect(() => runDecider.decide({ type: 'StartRun', data: { now: t1 } }, { status: 'finished', runId })).toThrow(RunNotInState);
    expect(() =>
      runDecider.decide({ type: 'FinishRun', data: { now: t1, fileName: 'f', sizeBytes: 1, summary } }, { status: 'queued', runId }),
    ).toThrow(RunNotInState);
  });
});
