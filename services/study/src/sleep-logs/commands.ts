import type { SleepLogValues } from '@sleepweave/contracts';
import { lockStream, type EventMetadata } from '@sleepweave/event-store';
import { badRequest, conflict, execute, HttpError, notFound, runCommand, type DomainErrors } from '@sleepweave/service-kit';
import { findConsent } from '../consents/queries.ts';
import type { StudyContext } from '../context.ts';
import {
  ConsentRequired,
  InvalidSleepLogDate,
  SleepLogAlreadyRecorded,
  SleepLogChangedMeanwhile,
  SleepLogNotFound,
  sleepLogDecider,
} from './business-logic.ts';
import { sleepLogStreamId } from './sleep-log.ts';

export const SLEEP_LOG_NOT_FOUND = 'Sleep log not found.';
export const SLEEP_LOG_CHANGED_MEANWHILE =
  'This night was saved again, in another tab or on another device, since you opened it. Nothing was changed now.';

const errors: DomainErrors = [
  [SleepLogAlreadyRecorded, () => conflict('A sleep log for this date already exists.')],
  [SleepLogNotFound, () => notFound(SLEEP_LOG_NOT_FOUND)],
  [SleepLogChangedMeanwhile, () => new HttpError(409, 'changed_meanwhile', SLEEP_LOG_CHANGED_MEANWHILE)],
  [InvalidSleepLogDate, (err) => badRequest(`date: ${err.message}`)],
  [ConsentRequired, (err) => new HttpError(403, 'consent_required', err.message)],
];

/** Her night, once (a second one for the same night is a 409: the stream exists). */
export async function recordSleepLog(
  ctx: StudyContext,
  input: { logId: string; userId: string; date: string; values: SleepLogValues; now: Date },
  metadata: EventMetadata,
): Promise<void> {
  const { userId } = input;
  await runCommand(
    ctx,
    sleepLogStreamId(userId, input.date),
    sleepLogDecider,
    async ({ tx, user }) => ({
      type: 'RecordSleepLog' as const,
      data: { ...input, studyStartDate: (await findConsent(tx, userId))?.study_start_date ?? null, timezone: user.timezone },
    }),
    { user: userId, metadata, errors },
  );
}

/**
 * Replaces the fields of one of her nights (whole-night replace: of two saves at once,
 * the later one is applied on top). With `expectedUpdatedAt` (the night as her form was
 * filled from it), a night saved since is refused (409 `changed_meanwhile`) instead.
 */
export async function reviseSleepLog(
  ctx: StudyContext,
  input: {
    logId: string;
    userId: string;
    loggedDate: string;
    date: string;
    values: SleepLogValues;
    now?: Date;
    expectedUpdatedAt?: string | undefined;
  },
  metadata: EventMetadata,
): Promise<void> {
  const { loggedDate, ...data } = input;
  const stream = sleepLogStreamId(input.userId, loggedDate);
  await execute(ctx, { user: input.userId, metadata, errors }, async ({ tx, handle, user }) => {
    // stamped once the night's turn has come: research keeps the revision with the newest
    // stamp, which is then also the last one committed here
    await lockStream(tx, stream);
    await handle(stream, sleepLogDecider, {
      type: 'ReviseSleepLog',
      data: { ...data, timezone: user.timezone, now: input.now ?? new Date() },
    });
  });
}
