import { defineProjection } from '@sleepweave/event-store';
import { countStudyStart } from '../stats/rollups.ts';
import type { ParticipantEvent } from './participant.ts';

/** The `study_participants` read model and its count per start date, `study_start_days` (Sleep Studies Shared). */
export const studyParticipantsProjection = defineProjection<ParticipantEvent>({
  name: 'study-participants',
  tables: ['study_participants', 'study_start_days'],
  handles: ['StudyParticipationRecorded'],
  async apply(tx, event) {
    const d = event.data;
    const added = await tx<{ start_date: string }[]>`
      insert into study_participants (user_id, study_start_date) values (${d.userId}, ${d.studyStartDate})
      on conflict (user_id) do nothing
      returning study_start_date::text as start_date`;
    for (const row of added) await countStudyStart(tx, row.start_date, 1);
  },
});
