import { useState } from 'react';
import { useLocation } from 'react-router';
import { browserStorage, readJson, writeJson } from './browser-storage';

/**
 * State of a screen that belongs to one visit of it (a history entry): kept in this tab's
 * sessionStorage under the entry's key, so that Back (or Forward) to that entry finds the
 * screen as she left it (a group she had opened, "show older" pressed), and the page can be
 * scrolled back to where she was. A new visit (a link, the menu) starts afresh. The last
 * MAX_ENTRIES entries are kept.
 */
const STORAGE_KEY = 'sleepweave:entry-state';
const MAX_ENTRIES = 50;

type Stored = { order: string[]; entries: Record<string, Record<string, unknown>> };

const storage = () => browserStorage('tab');

function read(): Stored {
  const parsed = readJson(storage(), STORAGE_KEY) as Partial<Stored> | undefined;
  if (Array.isArray(parsed?.order) && parsed.entries && typeof parsed.entries === 'object') return parsed as Stored;
  return { order: [], entries: {} };
}

function write(entry: string, name: string, value: unknown): void {
  const stored = read();
  stored.entries[entry] = { ...stored.entries[entry], [name]: value };
  stored.order = [...stored.order.filter((key) => key !== entry), entry];
  for (const old of stored.order.splice(0, Math.max(0, stored.order.length - MAX_ENTRIES))) delete stored.entries[old];
  writeJson(storage(), STORAGE_KEY, stored);
}

/** Like useState, for a value that is JSON, kept with this history entry (see above). */
export function useEntryState<T>(name: string, initial: T): [T, (value: T) => void] {
  // with the path: a tab's first entry is 'default' whichever page a new load opened
  const { key: entryKey, pathname } = useLocation();
  const key = `${entryKey} ${pathname}`;
  const [value, setValue] = useState<T>(() => {
    const kept = read().entries[key]?.[name];
    return kept === undefined ? initial : (kept as T);
  });
  return [
    value,
    (next: T) => {
      setValue(next);
      write(key, name, next);
    },
  ];
}

/** Every screen state kept in this tab (signing out on purpose: the next user starts afresh). */
export function dropEntryStates(): void {
  storage()?.removeItem(STORAGE_KEY);
}
