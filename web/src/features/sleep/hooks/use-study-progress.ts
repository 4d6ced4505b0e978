import { useQuery } from '@tanstack/react-query';
import { useConsent } from '../api/get-consent';
import { sleepLogsQueryOptions } from '../api/get-sleep-logs';
import { useStudyProfile } from '../api/get-study-profile';
import { studyProgress, type StudyProgress } from '../components/study-progress';
import { useNightClock } from '../../../lib/use-night-clock';

export type StudyProgressQuery =
  | { status: 'pending' }
  | { status: 'error'; error: unknown; retrying: boolean; retry: () => void }
  | { status: 'success'; progress: StudyProgress };

/**
 * Where she is in the study now (her consent, profile and nights; her timezone from the
 * profile), read again as her nights change (useNightClock). Her nights are only asked for
 * once she has joined.
 */
export function useStudyProgress(): StudyProgressQuery {
  const consent = useConsent();
  const profile = useStudyProfile();
  const joined = consent.data?.hasConsent === true;
  const logs = useQuery({ ...sleepLogsQueryOptions(), enabled: joined });
  const now = useNightClock(profile.data?.timezone);

  if (consent.isPending || profile.isPending || (joined && logs.isPending)) return { status: 'pending' };
  if (consent.data === undefined || profile.data === undefined || (joined && logs.data === undefined)) {
    return {
      status: 'error',
      error: consent.error ?? profile.error ?? logs.error,
      retrying: consent.isFetching || profile.isFetching || logs.isFetching,
      retry: () => {
        if (consent.isError) void consent.refetch();
        if (profile.isError) void profile.refetch();
        if (logs.isError) void logs.refetch();
      },
    };
  }
  return {
    status: 'success',
    progress: studyProgress({
      hasConsent: consent.data.hasConsent,
      studyStartDate: profile.data.studyStartDate ?? consent.data.studyStartDate,
      logs: logs.data ?? [],
      timezone: profile.data.timezone,
      now,
    }),
  };
}
