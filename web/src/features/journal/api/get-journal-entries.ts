import { JournalEntryList } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const journalEntriesQueryKey = ['journal', 'entries'] as const;

/** GET /api/journal/entries: her entries, newest first. */
export function getJournalEntries(): Promise<JournalEntryList> {
  return api.get('/api/journal/entries', { schema: JournalEntryList });
}

/** docs/product.md §7: journal entries are not retried. */
export const journalEntriesQueryOptions = () =>
  queryOptions({ queryKey: journalEntriesQueryKey, queryFn: getJournalEntries, retry: false });

export function useJournalEntries() {
  return useQuery(journalEntriesQueryOptions());
}
