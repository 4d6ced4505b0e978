import { browserStorage, writeJson } from './browser-storage';

/**
 * What she was writing when her session ended (a save answered 401: the app signs her in
 * again, docs/product.md §8), or when a save failed (the journal's, a message's: she may have
 * left the screen while it was on its way, and found it empty on her return; a night's too), kept in this
 * tab until she is back on the same screen: her
 * journal entry, night's sleep log, message, new thread's name or profile changes are not
 * lost with the sign-in. A draft belongs to the user who
 * wrote it: once a user is known in the tab, every draft of another user's or older than a
 * day is removed (sweepDrafts). Kept in sessionStorage (this tab only; a browser may
 * restore it with the tab); signing out on purpose drops them all.
 */
const PREFIX = 'sleepweave:draft:';
const KEPT_MS = 24 * 60 * 60 * 1000;

interface Stored<T> {
  userId: string;
  values: T;
  at: number;
}

const storage = () => browserStorage('tab');

export function keepDraft<T>(key: string, userId: string, values: T): void {
  // full or refused: the draft is not kept
  writeJson(storage(), PREFIX + key, { userId, values, at: Date.now() } satisfies Stored<T>);
}

/** Removes the draft kept under `key` (what it held was saved). */
export function dropDraft(key: string): void {
  storage()?.removeItem(PREFIX + key);
}

/** The draft kept under `key` for `userId`, left where it is; null when there is none of hers. */
export function readDraft<T>(key: string, userId: string): T | null {
  const text = storage()?.getItem(PREFIX + key);
  if (!text) return null;
  try {
    const stored = JSON.parse(text) as Stored<T>;
    return stored.userId === userId && Date.now() - stored.at < KEPT_MS ? stored.values : null;
  } catch {
    return null;
  }
}

/** The draft kept under `key` for `userId`, removed as it is taken; null when there is none of hers. */
export function takeDraft<T>(key: string, userId: string): T | null {
  const values = readDraft<T>(key, userId);
  dropDraft(key);
  return values;
}

/**
 * Removes the drafts `userId` may not have (another user's) and those past their day: what
 * is stored, not only what is shown, is hers and recent. Run when her user is known.
 */
export function sweepDrafts(userId: string): void {
  const store = storage();
  if (!store) return;
  for (const key of Object.keys(store)) {
    if (!key.startsWith(PREFIX)) continue;
    try {
      const stored = JSON.parse(store.getItem(key) ?? '') as Stored<unknown>;
      if (stored.userId === userId && Date.now() - stored.at < KEPT_MS) continue;
    } catch {
      // unreadable: removed
    }
    store.removeItem(key);
  }
}

/** Every draft of this tab (signing out, deleting the account). */
export function dropDrafts(): void {
  const store = storage();
  if (!store) return;
  for (const key of Object.keys(store)) if (key.startsWith(PREFIX)) store.removeItem(key);
}
