import { defineConsumer, lockDirectoryRowForEvent, runCommand, userOrderKey } from '@sleepweave/service-kit';
import type { ResearchExportContext } from '../context.ts';
import { participantDecider } from '../participants/business-logic.ts';
import { participantStreamId } from '../participants/participant.ts';
import { randomResearchId } from '../participants/research-id.ts';

/**
 * study.consent.given -> she is enrolled under a research id drawn at random now, recorded
 * as our own event (so a rebuild of `research_participants` keeps every id).
 */
export const studyConsentGiven = (ctx: ResearchExportContext) =>
  defineConsumer({
    name: 'research-export-enrolments',
    types: ['study.consent.given'],
    tables: [],
    // her rows only (her place in the admin list, which the nights' consumer locks too)
    orderKey: (envelope) => userOrderKey(envelope.data.userId),
    async handle(tx, envelope) {
      const { userId, studyStartDate, consentVersion, acceptedAt } = envelope.data;
      // Deleted meanwhile: nothing; her registration not here yet: retried until it is.
      if (!(await lockDirectoryRowForEvent(tx, userId))) return;
      await runCommand(
        ctx,
        participantStreamId(userId),
        participantDecider,
        { type: 'Enroll', data: { userId, researchId: randomResearchId(), studyStartDate, consentVersion, consentedAt: acceptedAt } },
        { tx, metadata: { correlationId: envelope.correlationId, causationId: envelope.id, userId } },
      );
    },
  });
