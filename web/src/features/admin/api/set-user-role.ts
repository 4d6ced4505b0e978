import { SetRoleResponse, type AdminUserDetail, type AdminUserList, type Role } from '@sleepweave/contracts';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api, type ApiPage } from '../../../lib/api-client';
import { userQueryKey } from '../../../lib/auth';
import { adminAuditQueryKey } from './get-admin-audit';
import { adminUserQueryKey } from './get-admin-user';
import { adminUsersQueryKey } from './get-admin-users';
import { READ_MODEL_DELAY_MS } from './read-model';

/** PUT /api/admin/users/{id}/role: grant (`admin`) or revoke (`participant`); 409 for the last admin. */
export function setUserRole({ userId, role }: { userId: string; role: Role }): Promise<SetRoleResponse> {
  return api.put(
    `/api/admin/users/${encodeURIComponent(userId)}/role`,
    { role },
    { schema: SetRoleResponse, redirectOnUnauthorized: false },
  );
}

export function useSetUserRole({
  onSuccess,
  onError,
}: {
  onSuccess?: (result: SetRoleResponse) => void;
  onError?: (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserRole,
    onSuccess: (result, { userId, role }) => {
      // Shown at once; the lists are read again once the change has reached them.
      queryClient.setQueryData<AdminUserDetail>(adminUserQueryKey(userId), (detail) => (detail ? { ...detail, role } : detail));
      queryClient.setQueriesData<InfiniteData<ApiPage<AdminUserList>>>({ queryKey: adminUsersQueryKey }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.map((item) => (item.id === userId ? { ...item, role } : item)),
              })),
            }
          : data,
      );
      setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: adminUsersQueryKey });
        void queryClient.invalidateQueries({ queryKey: adminAuditQueryKey });
        // her own role, when an admin stepped down herself
        void queryClient.invalidateQueries({ queryKey: userQueryKey });
      }, READ_MODEL_DELAY_MS);
      onSuccess?.(result);
    },
    onError,
  });
}
