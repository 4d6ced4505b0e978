import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { directoryLockOf, userOrderKey } from './user-directory.ts';

describe('userOrderKey', () => {
  it('orders users by the directory lock their events take turns on, then by id', () => {
    const users = Array.from({ length: 2_000 }, () => randomUUID());
    const ordered = [...users].sort((a, b) => (userOrderKey(a) < userOrderKey(b) ? -1 : 1));
    for (let i = 1; i < ordered.length; i++) {
      const [before, after] = [ordered[i - 1]!, ordered[i]!];
      const [lockBefore, lockAfter] = [directoryLockOf(before), directoryLockOf(after)];
      expect(lockBefore).toBeLessThanOrEqual(lockAfter);
      if (lockBefore === lockAfter) expect(before < after).toBe(true);
    }
    // the same user, the same key
    expect(userOrderKey(users[0]!)).toBe(userOrderKey(users[0]!));
  });
});
