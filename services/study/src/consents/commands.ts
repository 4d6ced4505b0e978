import { randomUUID } from 'node:crypto';
import { consentText, STUDY_PROTOCOLS } from '@sleepweave/contracts';
import type { EventMetadata } from '@sleepweave/event-store';
import { runCommand } from '@sleepweave/service-kit';
import type { StudyContext } from '../context.ts';
import { consentDecider } from './business-logic.ts';
import { consentStreamId } from './consent.ts';

/**
 * Records her consent (the text of the version she saw, the time, her IP) and starts her
 * study on that day in her timezone. Returns false when she had consented before (the
 * start date never moves: a second consent, even a double click, decides nothing).
 */
export async function giveConsent(
  ctx: StudyContext,
  input: { userId: string; consentVersion: string; ipAddress: string | null; now: Date },
  metadata: EventMetadata,
): Promise<boolean> {
  const { userId, consentVersion, ipAddress, now } = input;
  const { events } = await runCommand(
    ctx,
    consentStreamId(userId),
    consentDecider,
    ({ user }) => ({
      type: 'GiveConsent' as const,
      data: {
        consentId: randomUUID(),
        userId,
        consentText: consentText(STUDY_PROTOCOLS[consentVersion]!),
        consentVersion,
        ipAddress,
        timezone: user.timezone,
        now,
      },
    }),
    { user: userId, metadata },
  );
  return events.length > 0;
}
