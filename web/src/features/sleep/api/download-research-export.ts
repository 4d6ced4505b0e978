import { useMutation } from '@tanstack/react-query';
import { datedFileName, downloadFile } from '../../../lib/download';

/** Used when the server names no file (docs/product.md §7: a dated name with .zip). */
export const researchExportFileName = (now: Date = new Date()) => datedFileName('sleepweave-research-export', 'zip', now);

/**
 * GET /api/research/export: her own research zip (CSV files, QA reports, paired
 * comparisons across phases), saved under the Content-Disposition name. Answers that
 * name. A 401 is the card's to handle (toast, then sign in after 0.5 s).
 */
export function downloadResearchExport(): Promise<string> {
  return downloadFile('/api/research/export', researchExportFileName(), { redirectOnUnauthorized: false });
}

export function useDownloadResearchExport({
  onSuccess,
  onError,
}: {
  onSuccess?: (fileName: string) => void;
  onError?: (error: Error) => void;
} = {}) {
  return useMutation({ mutationFn: downloadResearchExport, onSuccess, onError });
}
