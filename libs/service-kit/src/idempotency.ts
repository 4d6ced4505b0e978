import { createHash, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from './errors.ts';

/**
 * The header of a create request that may be sent again: a UUID the client made for the one
 * thing it creates (her journal entry, message, thread) and sends with every try of it.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id of what a create request makes. With an Idempotency-Key, the same id at every try:
 * a create sent again after its answer was lost (a dropped connection, a time-out after it
 * was written) finds what the first made, and answers with it, instead of making it twice.
 * The id is derived from her user id, the kind of thing and the key (SHA-256, as a UUID of
 * version 8), so a key names nothing of anyone else's. Without the header, a new random id.
 */
export function createdId(request: FastifyRequest, kind: string, userId: string): string {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) return randomUUID();
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !UUID.test(key)) throw badRequest('Idempotency-Key must be a UUID, made once for the thing created');
  const bytes = createHash('sha256').update(`${kind}:${userId.toLowerCase()}:${key.toLowerCase()}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80; // version 8
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A try again of a create whose key was used for something else: nothing is made. */
export const keyReused = () =>
  new HttpError(409, 'idempotency_key_reused', 'This Idempotency-Key was used for another request: make a new one for each thing created.');
