import type { JournalExportFormat } from '@sleepweave/contracts';
import { useMutation } from '@tanstack/react-query';
import { datedFileName, downloadFile } from '../../../lib/download';

/**
 * GET /api/journal/export: her whole journal, oldest first, as a PDF or as Markdown, saved
 * under the server's name (the day she exported it); answers that name.
 */
export function downloadJournalExport(format: JournalExportFormat): Promise<string> {
  const fallback = datedFileName('sleepweave-journal', format);
  // a 401 is the screen's: it says she is logged out, then signs her in (not at once)
  return downloadFile(`/api/journal/export?format=${format}`, fallback, { redirectOnUnauthorized: false });
}

export function useDownloadJournalExport({
  onSuccess,
  onError,
}: {
  onSuccess?: (fileName: string) => void;
  onError?: (error: Error) => void;
} = {}) {
  return useMutation({ mutationFn: downloadJournalExport, onSuccess, onError });
}
