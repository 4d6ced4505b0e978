import { STREAMS, type StreamName } from './types.ts';

/**
 * Naming rules for a deployment prefix (docs/architecture.md, Naming).
 *
 * A prefix isolates deployments and test runs sharing one NATS server:
 * with prefix `t1a2b`, IDENTITY becomes stream `T1A2B_IDENTITY` on subjects
 * `t1a2b.identity.>`, and durable `study-identity-users` becomes `t1a2b-study-identity-users`.
 * The empty prefix (production) gives `IDENTITY`, `identity.>` and the durable unchanged.
 */

const PREFIX_PATTERN = /^[a-z0-9_-]*$/;

export function normalizePrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').trim().toLowerCase();
  if (!PREFIX_PATTERN.test(p)) {
    throw new Error(`invalid bus prefix '${prefix}': use letters, digits, '-' or '_'`);
  }
  return p;
}

/** JetStream stream name, e.g. `IDENTITY` or `T1A2B_IDENTITY`. */
export function streamNameFor(prefix: string, stream: StreamName): string {
  return prefix ? `${prefix.toUpperCase()}_${stream}` : stream;
}

/** Subject wildcard the stream captures, e.g. `identity.>` or `t1a2b.identity.>`. */
export function streamSubjectsFor(prefix: string, stream: StreamName): string {
  return subjectFor(prefix, `${STREAMS[stream]}.>`);
}

/** Subject of a wire type, e.g. `t1a2b.identity.user.registered`. */
export function subjectFor(prefix: string, type: string): string {
  return prefix ? `${prefix}.${type}` : type;
}

/** Durable consumer name with the prefix; dots and other invalid characters become '-'. */
export function durableNameFor(prefix: string, durable: string): string {
  const full = prefix ? `${prefix}-${durable}` : durable;
  const safe = full.replace(/[^A-Za-z0-9_-]/g, '-');
  if (!safe) throw new Error('durable consumer name must not be empty');
  return safe;
}

/** The stream a wire type belongs to (its first segment is the producing context), if any. */
export function streamOfType(type: string): StreamName | undefined {
  const context = type.split('.')[0];
  const entry = (Object.entries(STREAMS) as [StreamName, string][]).find(([, c]) => c === context);
  return entry?.[0];
}
