import { defineConsumer, lockDirectoryRowForEvent, runCommand } from '@sleepweave/service-kit';
import type { CommunityContext } from '../context.ts';
import { participantDecider } from '../study-completions/business-logic.ts';
import { participantStreamId } from '../study-completions/participant.ts';

/**
 * study.consent.given -> her study start date, for "Sleep Studies Shared", recorded as our
 * own event (the `study_participants` projection is rebuilt from it).
 */
export const studyConsentGiven = (ctx: CommunityContext) =>
  defineConsumer({
    name: 'community-study-participants',
    types: ['study.consent.given'],
    tables: [],
    async handle(tx, envelope) {
      const { userId, studyStartDate } = envelope.data;
      // A consent of a user deleted meanwhile changes nothing (docs/data-protection.md); one
      // whose registration has not reached us yet is retried until it has. The share lock
      // holds her row until we commit, so a deletion in flight either waits and then
      // removes what we record, or goes first.
      if (!(await lockDirectoryRowForEvent(tx, userId))) return;
      await runCommand(
        ctx,
        participantStreamId(userId),
        participantDecider,
        // The event's own time: a replay records the same values.
        { type: 'RecordStudyParticipation', data: { userId, studyStartDate, now: new Date(envelope.time) } },
        { tx, metadata: { correlationId: envelope.correlationId, causationId: envelope.id, userId } },
      );
    },
  });
