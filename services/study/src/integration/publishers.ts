import type { EventEnvelope } from '@sleepweave/contracts';
import { toEnvelope, type RecordedEvent } from '@sleepweave/event-store';
import type { ConsentEvent } from '../consents/consent.ts';
import type { SleepLogEvent } from '../sleep-logs/sleep-log.ts';

const source = 'study';

/**
 * Domain events -> integration events. The consent's text and IP address stay here;
 * research gets every night with its study day and phase.
 */
export function toIntegration(recorded: RecordedEvent): EventEnvelope | null {
  const event = recorded as RecordedEvent<ConsentEvent | SleepLogEvent>;
  switch (event.type) {
    case 'ConsentGiven': {
      const { userId, consentVersion, acceptedAt, studyStartDate } = event.data;
      return toEnvelope(event, { source, type: 'study.consent.given', data: { userId, consentVersion, acceptedAt, studyStartDate } });
    }
    case 'SleepLogRecorded':
      return toEnvelope(event, { source, type: 'study.sleep_log.recorded', data: event.data });
    case 'SleepLogRevised':
      return toEnvelope(event, { source, type: 'study.sleep_log.revised', data: event.data });
    default:
      return null;
  }
}
