/**
 * Advisory lock keys (two-int4 form: class id, object id). Each use has its own class id so
 * the keys never collide with each other or with the single-bigint key space.
 */
const MIGRATION_CLASS = 0x5357_0001;
const RELAY_CLASS = 0x5357_0002;
/** Serialises appends to one stream (transaction-scoped). */
export const STREAM_LOCK_CLASS = 0x5357_0003;
/** Per consumer: shared while an event is applied, exclusive while its read model is rebuilt. */
export const CONSUMER_LOCK_CLASS = 0x5357_0004;

export const MIGRATION_LOCK = { classId: MIGRATION_CLASS, objId: 0 };

/** 32-bit FNV-1a, folded to a non-negative int4. */
export function hashKey(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & 0x7fff_ffff;
}

export function relayLock(name: string): { classId: number; objId: number } {
  return { classId: RELAY_CLASS, objId: hashKey(`relay:${name}`) };
}
