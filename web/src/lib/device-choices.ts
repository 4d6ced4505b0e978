import { browserStorage, readJson, writeJson } from './browser-storage';

/**
 * What she chose on this device that it should not ask again (she keeps her profile's time
 * zone though the device's clock is another: features/home/components/timezone-notice.tsx).
 * Kept in localStorage for the user who chose it only (another user signing in here is asked
 * herself), and dropped when she signs out on purpose or deletes her account (dropLocalData).
 */
const KEY = 'sleepweave:choices';

type Stored = { userId: string; choices: Record<string, string> };

// refused (a privacy setting): she is asked again next time
const storage = () => browserStorage('device');

function read(): Stored | null {
  const parsed = readJson(storage(), KEY) as Partial<Stored> | undefined;
  return typeof parsed?.userId === 'string' && parsed.choices && typeof parsed.choices === 'object' ? (parsed as Stored) : null;
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
  writeJson(storage(), KEY, { userId, choices: { ...choices, [name]: value } } satisfies Stored);
}

/** Every choice kept on this device. */
export function forgetDeviceChoices(): void {
  storage()?.removeItem(KEY);
}
