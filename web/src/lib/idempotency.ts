import { useState } from 'react';

/** A random UUID (version 4) from getRandomValues, which, unlike randomUUID, every context has. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface IdempotencyKeys {
  /** The key of this thing: the same at every try while it has not been made, a new one for anything else. */
  for(content: unknown): string;
  /** This was made: the next thing gets a new key, even if it says the same (another thing still on its way keeps its own). */
  made(content: unknown): void;
}

/**
 * Idempotency-Keys for a create that she may send again (docs/decisions.md): a try whose
 * answer was lost after the server wrote it (a dropped connection, a time-out), sent again,
 * is answered with what the first made instead of making it twice.
 */
export function idempotencyKeys(): IdempotencyKeys {
  let last: { content: string; key: string } | null = null;
  return {
    for(content) {
      const text = JSON.stringify(content);
      if (last?.content !== text) last = { content: text, key: randomKey() };
      return last.key;
    },
    made(content) {
      if (last?.content === JSON.stringify(content)) last = null;
    },
  };
}

/** idempotencyKeys() kept for a component's life. */
export function useIdempotencyKeys(): IdempotencyKeys {
  return useState(idempotencyKeys)[0];
}
