import { ConsentStatus, CURRENT_PROTOCOL_VERSION } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { consentQueryKey } from './get-consent';
import { studyProfileQueryKey } from './get-study-profile';

/**
 * POST /api/sleep/consent with the version of the protocol text she read. A 401 is the
 * screen's to handle (toast, then sign in after 0.5 s).
 */
export function giveConsent(): Promise<ConsentStatus> {
  return api.post(
    '/api/sleep/consent',
    { consentVersion: CURRENT_PROTOCOL_VERSION },
    { schema: ConsentStatus, redirectOnUnauthorized: false },
  );
}

export function useGiveConsent({
  onSuccess,
  onError,
}: {
  onSuccess?: (status: ConsentStatus) => void;
  onError?: (error: Error) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: giveConsent,
    onSuccess: (status) => {
      queryClient.setQueryData(consentQueryKey, status);
      // identity learns the start date from the consent event: read it again.
      void queryClient.invalidateQueries({ queryKey: studyProfileQueryKey });
      onSuccess?.(status);
    },
    onError,
  });
}
