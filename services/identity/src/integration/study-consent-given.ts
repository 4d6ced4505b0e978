import type { EventEnvelope } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import type { ConsumerDefinition } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { userDecider } from '../users/business-logic.ts';
import { findUserById } from '../users/queries.ts';
import { userStreamId } from '../users/user.ts';

/** study.consent.given -> the user's studyStartDate (shown by GET /api/auth/user). */
export function studyConsentGiven(ctx: IdentityContext): ConsumerDefinition {
  return {
    name: 'identity-study-startdate',
    stream: 'STUDY',
    types: ['study.consent.given'],
    async handle(tx: Tx, envelope: EventEnvelope) {
      if (envelope.type !== 'study.consent.given') return;
      const { userId, studyStartDate } = envelope.data as EventEnvelope<'study.consent.given'>['data'];
      // A consent of a user deleted meanwhile changes nothing.
      if (!(await findUserById(tx as never, userId))) return;
      await ctx.store.handle(
        userStreamId(userId),
        userDecider,
        { type: 'RecordStudyStartDate', data: { userId, studyStartDate, now: new Date(envelope.time) } },
        { tx, metadata: { correlationId: envelope.correlationId, causationId: envelope.id, userId } },
      );
    },
  };
}
