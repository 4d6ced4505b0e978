import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { isApiRequestError } from '../../../lib/api-client';

/**
 * Whether the server refused any of the admin screens' calls (403: her admin role was
 * revoked while a page was open): the tiles, the list, a detail, the audit trail. The
 * screen then says "No access" rather than a failure to load one part of it.
 */
export function useAdminRefused(): boolean {
  const queryClient = useQueryClient();
  // A refusal from an earlier visit (her role given back since) is not this visit's: the
  // screen unmounts what it refused, which then is never asked again. Forgotten as it opens.
  useState(() => forgetRefusals(queryClient));
  const cache = queryClient.getQueryCache();
  return useSyncExternalStore(
    (onChange) => cache.subscribe(onChange),
    () => cache.findAll({ queryKey: ['admin'] }).some(refused),
  );
}

const refused = (query: { state: { error: unknown } }) => isApiRequestError(query.state.error) && query.state.error.status === 403;

function forgetRefusals(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: ['admin'], predicate: refused });
}
