import type { AdminExportKind } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { datedFileName, downloadFile } from '../../../lib/download';
import { adminAuditQueryKey } from './get-admin-audit';

export const EXPORT_FAILED = 'Export failed. Please try again.';

/**
 * GET /api/admin/export/{kind}: a CSV saved as `users-YYYY-MM-DD.csv` or
 * `sleep-YYYY-MM-DD.csv` (the server's name). Answers the name. Recorded in the audit trail.
 */
export function exportAdminData(kind: AdminExportKind): Promise<string> {
  return downloadFile(`/api/admin/export/${kind}`, datedFileName(kind, 'csv'));
}

export function useExportAdminData({ onError }: { onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: exportAdminData,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminAuditQueryKey }),
    onError,
  });
}
