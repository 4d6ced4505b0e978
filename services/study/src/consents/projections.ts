import { defineProjection } from '@sleepweave/event-store';
import type { ConsentEvent } from './consent.ts';

/** The `consents` read model (consent status, each participant's study start date). */
export const consentsProjection = defineProjection<ConsentEvent>({
  name: 'consents',
  tables: ['consents'],
  handles: ['ConsentGiven'],
  async apply(tx, event) {
    switch (event.type) {
      case 'ConsentGiven': {
        const d = event.data;
        await tx`
          insert into consents (id, user_id, consent_text, consent_version, accepted_at, ip_address, timezone, study_start_date)
          values (${d.consentId}, ${d.userId}, ${d.consentText}, ${d.consentVersion}, ${d.acceptedAt}, ${d.ipAddress}, ${d.timezone}, ${d.studyStartDate})`;
        return;
      }
    }
  },
});
