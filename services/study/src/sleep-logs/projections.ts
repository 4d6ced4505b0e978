import { defineProjection } from '@sleepweave/event-store';
import { SLEEP_LOG_FIELDS, type SleepLogValues } from '@sleepweave/contracts';
import { toColumns } from './columns.ts';
import type { SleepLogEvent } from './sleep-log.ts';

const valuesOf = (data: SleepLogValues): SleepLogValues =>
  Object.fromEntries(SLEEP_LOG_FIELDS.map((key) => [key, data[key] ?? null])) as SleepLogValues;

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
          ...toColumns(valuesOf(d)),
          created_at: d.recordedAt,
          updated_at: d.recordedAt,
        };
        await tx`insert into sleep_logs ${tx(row)}`;
        return;
      }
      case 'SleepLogRevised': {
        const d = event.data;
        const row = { ...toColumns(valuesOf(d)), updated_at: d.revisedAt };
        await tx`update sleep_logs set ${tx(row)} where id = ${d.logId}`;
        return;
      }
    }
  },
});
