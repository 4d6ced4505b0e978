import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';

export const SLEEP_EXPORT_FAILED = 'Failed to generate your export. Please try again.';

/**
 * What to say when her export failed: the server's sentence when it refused for a reason
 * she can act on (400: the dates; 404: no night logged in the range), "temporarily
 * unavailable" when Sleepweave is, else a plain failure.
 */
export function sleepExportFailure(error: unknown): string {
  const refusal = isApiRequestError(error) && (error.status === 400 || error.status === 404) ? serverMessage(error) : undefined;
  return refusal ?? failureMessage(error, SLEEP_EXPORT_FAILED);
}
