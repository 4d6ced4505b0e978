import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createdId } from './idempotency.ts';

const request = (key?: string | string[]) =>
  ({ headers: key === undefined ? {} : { 'idempotency-key': key } }) as unknown as FastifyRequest;
const her = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const other = '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f';
const key = 'a1b2c3d4-0000-4000-8000-00000000000a';
const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createdId', () => {
  it('gives the same id for the same key, hers and of that kind only', () => {
    const id = createdId(request(key), 'message', her);
    expect(id).toMatch(UUID_V8);
    expect(createdId(request(key.toUpperCase()), 'message', her)).toBe(id);
    expect(createdId(request(key), 'message', other)).not.toBe(id);
    expect(createdId(request(key), 'journal_entry', her)).not.toBe(id);
  });

  it('gives a new random id without a key, and refuses a key that is no UUID', () => {
    expect(createdId(request(), 'message', her)).not.toBe(createdId(request(), 'message', her));
    expect(() => createdId(request('retry-1'), 'message', her)).toThrow('Idempotency-Key must be a UUID');
  });
});
