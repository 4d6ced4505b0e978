import { defineProjection } from '@sleepweave/event-store';
import { refreshUserOrder } from '../admin/user-order.ts';
import type { ParticipantEvent } from './participant.ts';

/** The `research_participants` read model: who is enrolled, under which research id. */
export const participantsProjection = defineProjection<ParticipantEvent>({
  name: 'research-participants',
  tables: ['research_participants'],
  handles: ['ParticipantEnrolled'],
  async apply(tx, event) {
    const d = event.data;
    await tx`
      insert into research_participants (user_id, research_id, study_start_date, consent_version, consented_at)
      values (${d.userId}, ${d.researchId}, ${d.studyStartDate}, ${d.consentVersion}, ${d.consentedAt})
      on conflict (user_id) do nothing`;
    // her compliance, for the admin list's sort by it
    await refreshUserOrder(tx, d.userId);
  },
});
