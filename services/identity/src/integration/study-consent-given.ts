import { defineConsumer, runCommand } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { UserNotFound, userDecider } from '../users/business-logic.ts';
import { userStreamId } from '../users/user.ts';

/**
 * study.consent.given -> her studyStartDate (GET /api/auth/user), recorded as an event of
 * her own stream (so the `users` projection rebuilds it from identity's events).
 */
export const studyConsentGiven = (ctx: IdentityContext) =>
  defineConsumer({
    name: 'identity-study-startdate',
    types: ['study.consent.given'],
    tables: [],
    async handle(tx, envelope) {
      const { userId, studyStartDate } = envelope.data;
      try {
        await runCommand(
          ctx,
          userStreamId(userId),
          userDecider,
          // The event's own time: a replay records the same values.
          { type: 'RecordStudyStartDate', data: { userId, studyStartDate, now: new Date(envelope.time) } },
          { tx, metadata: { correlationId: envelope.correlationId, causationId: envelope.id, userId } },
        );
      } catch (err) {
        // A consent of a user deleted meanwhile changes nothing.
        if (!(err instanceof UserNotFound)) throw err;
      }
    },
  });
