import { ValidateResetTokenResponse } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/validate-reset-token?token=: 200 while the link can be used, 400 with the reason otherwise. */
export function validateResetToken(token: string): Promise<ValidateResetTokenResponse> {
  return api.get(`/api/validate-reset-token?token=${encodeURIComponent(token)}`, {
    schema: ValidateResetTokenResponse,
    redirectOnUnauthorized: false,
  });
}

export const validateResetTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['reset-token', token],
    queryFn: () => validateResetToken(token),
    // the answer changes once the link is used; never show a stale "valid"
    gcTime: 0,
  });

export function useValidateResetToken(token: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...validateResetTokenQueryOptions(token), enabled });
}
