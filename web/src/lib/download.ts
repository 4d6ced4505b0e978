import { format } from 'date-fns';
import { api, type RequestOptions } from './api-client';

/**
 * How long the object URL of a saved file is kept: the browser reads it after the click
 * returns, and some (Safari, Firefox) only start the download a moment later.
 */
const REVOKE_AFTER_MS = 40_000;

/** `<prefix>-YYYY-MM-DD.<extension>`, dated today on the browser's clock. */
export function datedFileName(prefix: string, extension: string, now: Date = new Date()): string {
  return `${prefix}-${format(now, 'yyyy-MM-dd')}.${extension}`;
}

/** Hands a file to the browser's downloads, under `fileName`. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}

/**
 * GETs a file (cookies sent, errors raised as for any call) and saves it under the name the
 * server's Content-Disposition gives, else `defaultFileName`. Answers the name it used.
 */
export async function downloadFile(
  path: string,
  defaultFileName: string,
  options: Omit<RequestOptions<unknown>, 'schema'> = {},
): Promise<string> {
  const file = await api.getFile(path, options);
  const fileName = file.fileName ?? defaultFileName;
  saveFile(file.blob, fileName);
  return fileName;
}
