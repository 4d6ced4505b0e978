import { MessageResponse, type AdminUserList } from '@sleepweave/contracts';
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { api, type ApiPage } from '../../../lib/api-client';
import { adminAuditQueryKey } from './get-admin-audit';
import { adminStatsQueryKey } from './get-admin-stats';
import { adminUserQueryKey } from './get-admin-user';
import { adminUsersQueryKey } from './get-admin-users';
import { READ_MODEL_DELAY_MS } from './read-model';

/**
 * DELETE /api/admin/users/{id}: an admin deletes a user's account and all her data, as she
 * can herself in Settings (docs/data-protection.md); 409 for the last admin, 404 when she is
 * gone already. Recorded in the audit trail.
 */
export function deleteUser(userId: string): Promise<MessageResponse> {
  return api.delete(`/api/admin/users/${encodeURIComponent(userId)}`, undefined, {
    schema: MessageResponse,
    redirectOnUnauthorized: false,
  });
}

/** A user gone (deleted here, or elsewhere: her detail answered 404) leaves the lists shown at once. */
export function dropFromLists(queryClient: QueryClient, userId: string): void {
  queryClient.setQueriesData<InfiniteData<ApiPage<AdminUserList>>>({ queryKey: adminUsersQueryKey }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== userId) })) } : data,
  );
}

export function useDeleteUser({
  onSuccess,
  onError,
}: {
  onSuccess?: (result: MessageResponse, userId: string) => void;
  onError?: (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (result, userId) => {
      // gone from the lists at once (her detail is never read again: each read is audited);
      // the lists, tiles and trail are read again once the deletion has reached them
      queryClient.removeQueries({ queryKey: adminUserQueryKey(userId) });
      dropFromLists(queryClient, userId);
      setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: adminUsersQueryKey });
        void queryClient.invalidateQueries({ queryKey: adminStatsQueryKey });
        void queryClient.invalidateQueries({ queryKey: adminAuditQueryKey });
      }, READ_MODEL_DELAY_MS);
      onSuccess?.(result, userId);
    },
    onError,
  });
}
