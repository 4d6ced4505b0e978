import { defineProjection } from '@sleepweave/event-store';
import { countStudyStart } from '../stats/rollups.ts';
import type { ParticipantEvent } from './participant.ts';

/**
 * The `study_participants` read model and its count per start date, `study_start_days`
 * (Sleep Studies Shared). A rebuild counts the start dates in memory and writes them at its
 * end: a cohort starting on one date updated that date's row at each participant, in the
 * rebuild's one transaction (libs/event-store, `replay`).
 */
export const studyParticipantsProjection = defineProjection<ParticipantEvent, Map<string, number>>({
  name: 'study-participants',
  tables: ['study_participants', 'study_start_days'],
  handles: ['StudyParticipationRecorded'],
  async apply(tx, event, replay) {
    const d = event.data;
    const added = await tx<{ start_date: string }[]>`
      insert into study_participants (user_id, study_start_date) values (${d.userId}, ${d.studyStartDate})
      on conflict (user_id) do nothing
      returning study_start_date::text as start_date`;
    for (const row of added) {
      if (replay) replay.set(row.start_date, (replay.get(row.start_date) ?? 0) + 1);
      else await countStudyStart(tx, row.start_date, 1);
    }
  },
  replay: {
    start: () => new Map(),
    async end(tx, starts) {
      const days = [...starts];
      if (days.length === 0) return;
      await tx`
        insert into study_start_days (start_date, participants)
        select * from unnest(${days.map(([day]) => day)}::date[], ${days.map(([, count]) => count)}::int[])`;
    },
  },
});
