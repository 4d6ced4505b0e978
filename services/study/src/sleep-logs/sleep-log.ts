import type { SleepLogValues, SleepwearMaterial, StudyPhase, Timezone } from '@sleepweave/contracts';
import type { DomainEvent } from '@sleepweave/event-store';

/** One stream per participant and night: a second log for a night is a stream that exists. */
export const sleepLogStreamId = (userId: string, date: string) => `sleep_log:${userId}:${date}`;
export const sleepLogStreamPrefix = (userId: string) => `sleep_log:${userId}:`;

/** Which night a log is, fixed when it is first recorded. */
export type Night = {
  logId: string;
  userId: string;
  date: string;
  studyDay: number;
  phase: StudyPhase;
  recommendedMaterial: SleepwearMaterial;
  /**
   * Her time zone when she logged it: the night ended at 04:00 there (research's QA reads
   * her recording time against that end). Absent from nights logged before it was kept.
   */
  timezone?: Timezone;
};

export type SleepLogRecorded = DomainEvent<'SleepLogRecorded', Night & SleepLogValues & { recordedAt: string }>;
/** The whole night as it is after the change. */
export type SleepLogRevised = DomainEvent<'SleepLogRevised', Night & SleepLogValues & { revisedAt: string }>;

export type SleepLogEvent = SleepLogRecorded | SleepLogRevised;

export type SleepLogState =
  | { status: 'none' }
  | {
      status: 'recorded';
      night: Night;
      values: SleepLogValues;
      /** When its values were last saved (the read model's and the API's `updatedAt`). */
      updatedAt: string;
    };

export const initialState = (): SleepLogState => ({ status: 'none' });

function split(data: Night & SleepLogValues & { recordedAt?: string; revisedAt?: string }): { night: Night; values: SleepLogValues } {
  const { logId, userId, date, studyDay, phase, recommendedMaterial, timezone, recordedAt: _r, revisedAt: _v, ...values } = data;
  const night: Night = { logId, userId, date, studyDay, phase, recommendedMaterial };
  if (timezone !== undefined) night.timezone = timezone;
  return { night, values: values as SleepLogValues };
}

export function evolve(state: SleepLogState, event: SleepLogEvent): SleepLogState {
  switch (event.type) {
    case 'SleepLogRecorded':
      return { status: 'recorded', ...split(event.data), updatedAt: event.data.recordedAt };
    case 'SleepLogRevised':
      return state.status === 'recorded'
        ? { status: 'recorded', night: state.night, values: split(event.data).values, updatedAt: event.data.revisedAt }
        : state;
    default:
      return state;
  }
}
