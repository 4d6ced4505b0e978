import type { ExpectedVersion } from './types.ts';

/**
 * The stream's version did not match the expected version: someone else appended first
 * (HTTP 409 where a user caused it).
 */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  readonly streamId: string;
  readonly expected: ExpectedVersion;
  /**
   * The version found. null when the conflict was detected by the database's unique
   * (stream_id, stream_position) constraint: the stream moved on concurrently.
   */
  readonly actual: number | null;

  constructor(streamId: string, expected: ExpectedVersion, actual: number | null) {
    super(
      `stream '${streamId}': expected version ${String(expected)}, ` +
        (actual === null ? 'but another append came first' : `found ${actual}`),
    );
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

export function isConcurrencyError(err: unknown): err is ConcurrencyError {
  return err instanceof ConcurrencyError;
}
