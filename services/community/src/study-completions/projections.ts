import { defineProjection } from '@sleepweave/event-store';
import type { ParticipantEvent } from './participant.ts';

/** The `study_participants` read model (Sleep Studies Shared). */
export const studyParticipantsProjection = defineProjection<ParticipantEvent>({
  name: 'study-participants',
  tables: ['study_participants'],
  handles: ['StudyParticipationRecorded'],
  async apply(tx, event) {
    const d = event.data;
    await tx`
      insert into study_participants (user_id, study_start_date) values (${d.userId}, ${d.studyStartDate})
      on conflict (user_id) do nothing`;
  },
});
