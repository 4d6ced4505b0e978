import type { ConsentStatus } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';

export interface ConsentRow {
  id: string;
  user_id: string;
  consent_version: string;
  accepted_at: Date;
  study_start_date: string;
}

export async function findConsent(sql: Sql | Tx, userId: string): Promise<ConsentRow | undefined> {
  const [row] = await (sql as Sql)<ConsentRow[]>`
    select id, user_id, consent_version, accepted_at, study_start_date::text as study_start_date
    from consents where user_id = ${userId}`;
  return row;
}

export function toConsentStatus(row: ConsentRow | undefined): ConsentStatus {
  if (!row) return { hasConsent: false, consentVersion: null, acceptedAt: null, studyStartDate: null };
  return {
    hasConsent: true,
    consentVersion: row.consent_version,
    acceptedAt: row.accepted_at.toISOString(),
    studyStartDate: row.study_start_date,
  };
}
