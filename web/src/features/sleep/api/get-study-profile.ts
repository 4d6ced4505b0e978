import { AuthUser } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const studyProfileQueryKey = ['auth', 'user'] as const;

/** GET /api/auth/user: her timezone and studyStartDate (null until identity has it). */
export function getStudyProfile(): Promise<AuthUser> {
  return api.get('/api/auth/user', { schema: AuthUser });
}

export const studyProfileQueryOptions = () => queryOptions({ queryKey: studyProfileQueryKey, queryFn: getStudyProfile });

export function useStudyProfile() {
  return useQuery(studyProfileQueryOptions());
}
