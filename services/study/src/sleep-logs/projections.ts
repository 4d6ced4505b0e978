import { defineProjection } from '@sleepweave/event-store';
import { toColumns } from './columns.ts';
import type { SleepLogEvent } from './sleep-log.ts';

/** The `sleep_logs` read model: her nights, newest first, and the id -> night lookup. */
export const sleepLogsProjection = defineProjection<SleepLogEvent>({
  name: 'sleep-logs',
  tables: ['sleep_logs'],
  handles: ['SleepLogRecorded', 'SleepLogRevised'],
  async apply(tx, event) {
    switch (event.type) {
      case 'SleepLogRecorded': {
        const d = event.data;
        const row = {
          id: d.logId,
          user_id: d.userId,
          date: d.date,
          study_day: d.studyDay,
          phase: d.phase,
          recommended_material: d.recommendedMaterial,
          ...toColumns(d),
          created_at: d.recordedAt,
          updated_at: d.recordedAt,
        };
        await tx`insert into sleep_logs ${tx(row)}`;
        return;
      }
      case 'SleepLogRevised': {
        const d = event.data;
        await tx`update sleep_logs set ${tx({ ...toColumns(d), updated_at: d.revisedAt })} where id = ${d.logId}`;
        return;
      }
    }
  },
});
