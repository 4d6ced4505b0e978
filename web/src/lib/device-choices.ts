/**
 * What she chose on this device that it should not ask again (she keeps her profile's time
 * zone though the device's clock is another: features/home/components/timezone-notice.tsx).
 * Kept in localStorage for the user who chose it only (another user signing in here is asked
 * herself), and dropped when she signs out on purpose or deletes her account (dropLocalData).
 */
const KEY = 'sleepweave:choices';

type Stored = { userId: string; choices: Record<string, string> };

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // refused (a privacy setting): she is asked again next time
  }
}

function read(): Stored | null {
  try {
    const parsed = JSON.parse(storage()?.getItem(KEY) ?? '') as Stored;
    return typeof parsed.userId === 'string' && parsed.choices && typeof parsed.choices === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/** Her choice `name` on this device, or null (none, or another user's). */
export function keptChoice(userId: string, name: string): string | null {
  const stored = read();
  return stored?.userId === userId ? (stored.choices[name] ?? null) : null;
}

/** Keeps her choice `name` on this device (another user's choices go). */
export function keepChoice(userId: string, name: string, value: string): void {
  const stored = read();
  const choices = stored?.userId === userId ? stored.choices : {};
  try {
    storage()?.setItem(KEY, JSON.stringify({ userId, choices: { ...choices, [name]: value } } satisfies Stored));
  } catch {
    // full or refused: kept for this screen only
  }
}

/** Every choice kept on this device. */
export function forgetDeviceChoices(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // refused: nothing was kept
  }
}
