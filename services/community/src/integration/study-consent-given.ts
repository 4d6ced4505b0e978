import type { EventEnvelope } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import type { ConsumerDefinition } from '@sleepweave/service-kit';
import type { CommunityContext } from '../context.ts';
import { participantDecider } from '../study-completions/business-logic.ts';
import { participantStreamId } from '../study-completions/participant.ts';
import { lockDirectoryRow } from '@sleepweave/service-kit';

/** study.consent.given -> her study start date, for "Sleep Studies Shared". */
export function studyConsentGiven(ctx: CommunityContext): ConsumerDefinition {
  return {
    name: 'community-study-participants',
    stream: 'STUDY',
    types: ['study.consent.given'],
    async handle(tx: Tx, envelope: EventEnvelope) {
      if (envelope.type !== 'study.consent.given') return;
      const { userId, studyStartDate } = envelope.data as EventEnvelope<'study.consent.given'>['data'];
      // A consent of a user unknown here (deleted meanwhile) changes nothing
      // (docs/data-protection.md). The share lock holds her row until we commit, so a
      // deletion in flight either waits and then removes what we record, or goes first.
      if (!(await lockDirectoryRow(tx, userId))) return;
      await ctx.store.handle(
        participantStreamId(userId),
        participantDecider,
        // The event's own time: a replay records the same values.
        { type: 'RecordStudyParticipation', data: { userId, studyStartDate, now: new Date(envelope.time) } },
        { tx, metadata: { correlationId: envelope.correlationId, causationId: envelope.id, userId } },
      );
    },
  };
}
