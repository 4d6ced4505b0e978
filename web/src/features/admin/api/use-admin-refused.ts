import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { isApiRequestError } from '../../../lib/api-client';

/**
 * Whether the server refused any of the admin screens' calls (403: her admin role was
 * revoked while a page was open): the tiles, the list, a detail, the audit trail. The
 * screen then says "No access" rather than a failure to load one part of it.
 */
export function useAdminRefused(): boolean {
  const cache = useQueryClient().getQueryCache();
  return useSyncExternalStore(
    (onChange) => cache.subscribe(onChange),
    () => cache.findAll({ queryKey: ['admin'] }).some((query) => isApiRequestError(query.state.error) && query.state.error.status === 403),
  );
}
