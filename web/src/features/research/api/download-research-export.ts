import { useMutation } from '@tanstack/react-query';
import { datedFileName, downloadFile } from '../../../lib/download';

export const LATEST_RESEARCH_EXPORT_PATH = '/api/admin/research/latest/download';

export const researchRunDownloadPath = (id: string) => `/api/admin/research/runs/${encodeURIComponent(id)}/download`;

export interface ResearchDownload {
  /** LATEST_RESEARCH_EXPORT_PATH or researchRunDownloadPath(id). */
  path: string;
  /** The name to save under when the answer names none (the run's fileName, when known). */
  fileName?: string | null;
}

/**
 * GETs a research zip of the whole study and saves it under its Content-Disposition name
 * (else the given one, else `sleepweave-research-YYYY-MM-DD.zip`). Answers the name. 404
 * when there is none (yet, or no longer kept). A 401 is the caller's to handle.
 */
export function downloadResearchExport({ path, fileName }: ResearchDownload): Promise<string> {
  return downloadFile(path, fileName ?? datedFileName('sleepweave-research', 'zip'), { redirectOnUnauthorized: false });
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
