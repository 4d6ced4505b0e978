import { randomUUID } from 'node:crypto';
import type { ResearchRunSummary } from '@sleepweave/contracts';
import { isConcurrencyError, type EventMetadata } from '@sleepweave/event-store';
import { accountDeleted, conflict, execute, runCommand } from '@sleepweave/service-kit';
import { actorHere } from '../admin/commands.ts';
import type { ResearchExportContext } from '../context.ts';
import { runDecider } from './business-logic.ts';
import { runStreamId } from './run.ts';
import { scheduleDecider } from './schedule-decider.ts';
import { scheduleStreamId } from './schedule.ts';

export const RUN_ACTIVE_MESSAGE = 'A research run is already queued or running. Please wait for it to finish.';

/** Serialises requests, so two admins pressing Run now at once queue one run. */
const REQUEST_LOCK = 'research-export:run-request';

/** An admin's Run now: a new queued run, unless one is queued or running (409). */
export async function requestRun(
  ctx: ResearchExportContext,
  input: { requestedBy: string; now: Date },
  metadata: EventMetadata,
): Promise<string> {
  const runId = randomUUID();
  await execute(ctx, { metadata }, async ({ tx, handle }) => {
    // An admin whose deletion is under way or done (her token outlived it) asks for nothing:
    // her id would stay on the run, after her deletion cleared it from the others.
    if (!(await actorHere(tx, input.requestedBy))) throw accountDeleted();
    await tx`select pg_advisory_xact_lock(hashtext(${REQUEST_LOCK}))`;
    const [active] = await tx`select 1 from research_runs where status in ('queued', 'running') limit 1`;
    if (active) throw conflict(RUN_ACTIVE_MESSAGE);
    await handle(runStreamId(runId), runDecider, {
      type: 'RequestRun',
      data: { runId, trigger: 'admin', requestedBy: input.requestedBy, now: input.now },
    });
  });
  return runId;
}

/**
 * The nightly run of `date`, queued once however many instances ask: the date's schedule
 * stream takes one event; an instance that lost the race finds it taken. Its run id, or
 * null when the night was scheduled already.
 */
export async function scheduleNightlyRun(ctx: ResearchExportContext, date: string, now: Date): Promise<string | null> {
  const runId = randomUUID();
  try {
    const scheduled = await execute(ctx, { metadata: { correlationId: runId } }, async ({ handle }) => {
      const { events } = await handle(scheduleStreamId(date), scheduleDecider, { date, runId });
      if (events.length === 0) return false;
      await handle(runStreamId(runId), runDecider, { type: 'RequestRun', data: { runId, trigger: 'schedule', requestedBy: null, now } });
      return true;
    });
    return scheduled ? runId : null;
  } catch (err) {
    if (isConcurrencyError(err)) return null; // another instance scheduled it at the same moment
    throw err;
  }
}

const metadataOf = (runId: string): EventMetadata => ({ correlationId: runId });

export const startRun = (ctx: ResearchExportContext, runId: string, now: Date) =>
  runCommand(ctx, runStreamId(runId), runDecider, { type: 'StartRun', data: { now } }, { metadata: metadataOf(runId) });

export const finishRun = (
  ctx: ResearchExportContext,
  runId: string,
  result: { now: Date; fileName: string; sizeBytes: number; summary: ResearchRunSummary },
) => runCommand(ctx, runStreamId(runId), runDecider, { type: 'FinishRun', data: result }, { metadata: metadataOf(runId) });

export const failRun = (ctx: ResearchExportContext, runId: string, now: Date, reason: string) =>
  runCommand(ctx, runStreamId(runId), runDecider, { type: 'FailRun', data: { now, reason } }, { metadata: metadataOf(runId) });
