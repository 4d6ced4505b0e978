import { ConsentStatus } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const consentQueryKey = ['sleep', 'consent'] as const;

/** GET /api/sleep/consent: whether she has joined the study. */
export function getConsent(): Promise<ConsentStatus> {
  return api.get('/api/sleep/consent', { schema: ConsentStatus });
}

export const consentQueryOptions = () => queryOptions({ queryKey: consentQueryKey, queryFn: getConsent });

export function useConsent() {
  return useQuery(consentQueryOptions());
}
