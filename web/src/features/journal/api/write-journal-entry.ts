import type { JournalEntryRequest } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiRequestError } from '../../../lib/api-client';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { journalEntriesQueryKey } from './get-journal-entries';

/**
 * POST /api/journal/entry. The server sets her user and today's date; the answer is not
 * read. A 401 is the form's to handle (toast, then sign in after 0.5 s).
 */
export async function writeJournalEntry(data: JournalEntryRequest, idempotencyKey?: string): Promise<void> {
  await api.post<unknown>('/api/journal/entry', data, { redirectOnUnauthorized: false, idempotencyKey });
}

/** When her list is read again after a save whose outcome is not known (besides at once). */
export const UNCONFIRMED_REREAD_MS = [5_000, 15_000, 45_000];

export function useWriteJournalEntry({
  onSuccess,
  onError,
}: {
  onSuccess?: () => void;
  onError?: (error: Error, sent: JournalEntryRequest) => void;
} = {}) {
  const queryClient = useQueryClient();
  const keys = useIdempotencyKeys('journal-entry');
  const mutation = useMutation({
    mutationFn: (data: JournalEntryRequest) => writeJournalEntry(data, keys.for(data)),
    onSuccess: async (_answer, sent) => {
      keys.made(sent);
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: journalEntriesQueryKey });
    },
    onError: (error, sent) => {
      // No answer, or the server's own failure: it may be made yet (a service that hung goes on
      // once it is back): her list is read again, and again later (a read made at once can
      // come before the entry does), and shows it if it was.
      if (!isApiRequestError(error) || error.status >= 500) {
        for (const afterMs of [0, ...UNCONFIRMED_REREAD_MS])
          setTimeout(() => void queryClient.invalidateQueries({ queryKey: journalEntriesQueryKey }), afterMs);
      }
      onError?.(error, sent);
    },
  });
  return Object.assign(mutation, { forgetKey: keys.forget });
}
