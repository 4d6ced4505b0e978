/**
 * The browser's storage, or null where it is refused (a privacy setting; a sandboxed frame
 * throws on the mere access): whatever was to be kept then lives only as long as the screen.
 * `tab`: this tab's sessionStorage; `device`: this browser's localStorage.
 */
export function browserStorage(kind: 'tab' | 'device'): Storage | null {
  try {
    return kind === 'tab' ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}

/** The JSON kept under `key`, or undefined (none, refused, or not JSON). */
export function readJson(storage: Storage | null, key: string): unknown {
  try {
    const text = storage?.getItem(key);
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `value` as JSON under `key`; a full or refused storage keeps nothing. */
export function writeJson(storage: Storage | null, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // full or refused
  }
}
