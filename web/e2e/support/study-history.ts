import { randomUUID } from 'node:crypto';
import { consentText, type Timezone } from '@sleepweave/contracts';
import { createEventStore } from '@sleepweave/event-store';
import { connectDatabase } from '@sleepweave/service-kit';
import { consentDecider } from '../../../services/study/src/consents/business-logic.ts';
import { consentStreamId } from '../../../services/study/src/consents/consent.ts';
import { studyProjections } from '../../../services/study/src/context.ts';

/**
 * A participant who joined weeks ago: her consent recorded with a time in the past, in the
 * study service's own event store (through its decider and projections, as the service
 * records one; its relay then publishes it like any other). The app has no way to consent
 * in the past, and a test cannot wait six weeks; everything after this goes through the UI
 * and the API.
 */
export async function consentedDaysAgo(userId: string, days: number, timezone: Timezone = 'Europe/London'): Promise<void> {
  const name = process.env.E2E_NAME ?? 'e2e';
  const sql = connectDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432', `sleepweave_${name}_study`, { max: 1 });
  try {
    const store = createEventStore(sql, { projections: studyProjections });
    await store.handle(consentStreamId(userId), consentDecider, {
      type: 'GiveConsent',
      data: {
        consentId: randomUUID(),
        userId,
        consentText: consentText(),
        consentVersion: '1.0',
        ipAddress: null,
        timezone,
        now: new Date(Date.now() - days * 86_400_000),
      },
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
