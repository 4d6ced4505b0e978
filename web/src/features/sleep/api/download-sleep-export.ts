import { sleepExportFileName, type SleepExportQuery } from '@sleepweave/contracts';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../lib/download';

/** GET /api/sleep/export for her range and format (docs/personal-exports.md). */
export const sleepExportPath = ({ startDate, endDate, format }: SleepExportQuery) =>
  `/api/sleep/export?${new URLSearchParams({ startDate, endDate, format })}`;

/**
 * Downloads her sleep of the range as an Excel workbook or a PDF report, saved under the
 * Content-Disposition name (her dates); answers that name. A 400 or 404 (no night in the
 * range) is raised with the server's sentence, for the screen to show.
 */
export function downloadSleepExport(query: SleepExportQuery): Promise<string> {
  // a 401 is the screen's: it says she is logged out, then signs her in (not at once)
  return downloadFile(sleepExportPath(query), sleepExportFileName(query), { redirectOnUnauthorized: false });
}

export function useDownloadSleepExport({
  onSuccess,
  onError,
}: {
  onSuccess?: (fileName: string, query: SleepExportQuery) => void;
  onError?: (error: Error, query: SleepExportQuery) => void;
} = {}) {
  return useMutation({ mutationFn: downloadSleepExport, onSuccess, onError });
}
