import { useMemo, useState } from 'react';
import { useUser } from './auth';
import { dropDraft, keepDraft, readDraft } from './drafts';

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
  /** She let the last thing go (cleared the text given back to her): the same words later are a new thing. */
  forget(): void;
}

/** The last thing sent and not yet known to be made, with its key. */
interface Pending {
  content: string;
  key: string;
}

/** Where the key of the last thing not yet known to be made is kept. */
export interface PendingKey {
  read(): Pending | null;
  write(pending: Pending | null): void;
}

const inMemory = (): PendingKey => {
  let pending: Pending | null = null;
  return { read: () => pending, write: (next) => void (pending = next) };
};

/**
 * Idempotency-Keys for a create that she may send again (docs/decisions.md): a try whose
 * answer was lost after the server wrote it (a dropped connection, a time-out), sent again,
 * is answered with what the first made instead of making it twice. Only the last thing sent
 * keeps its key: once she sends something else, the same words later are a new thing (kept
 * for every thing, a message she sent again on purpose, after others, was answered with the
 * first and not posted).
 */
export function idempotencyKeys(store: PendingKey = inMemory()): IdempotencyKeys {
  return {
    for(content) {
      const text = JSON.stringify(content);
      const last = store.read();
      if (last?.content === text) return last.key;
      const key = randomKey();
      store.write({ content: text, key });
      return key;
    },
    made(content) {
      if (store.read()?.content === JSON.stringify(content)) store.write(null);
    },
    forget() {
      store.write(null);
    },
  };
}

/**
 * The key kept with her drafts (lib/drafts.ts: this tab, her user, a day): a save that
 * failed keeps its text as a draft, which comes back when she returns to the screen or
 * reloads; sent again from there, it must carry the key of its first try. (Kept only for the
 * component's life, a save whose answer was lost, sent again after a reload, was made twice.)
 */
function keptWithDrafts(name: string, userId: string): PendingKey {
  const draftKey = `idempotency:${name}`;
  return {
    read: () => readDraft<Pending>(draftKey, userId),
    write: (pending) => (pending ? keepDraft(draftKey, userId, pending) : dropDraft(draftKey)),
  };
}

/** idempotencyKeys() for the creates called `name`, kept in this tab for her (in memory until her user is known). */
export function useIdempotencyKeys(name: string): IdempotencyKeys {
  const userId = useUser().data?.id;
  const inMemoryKeys = useState(idempotencyKeys)[0];
  return useMemo(() => (userId ? idempotencyKeys(keptWithDrafts(name, userId)) : inMemoryKeys), [name, userId, inMemoryKeys]);
}
