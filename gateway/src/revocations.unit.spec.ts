import { describe, expect, it, vi } from 'vitest';
import { RevocationList } from './revocations.ts';

describe('RevocationList', () => {
  it('refuses a revoked session until its memory runs out', () => {
    const list = new RevocationList(1_000);
    list.revoke('s1', 0);
    expect(list.isRevoked('s1', 500)).toBe(true);
    expect(list.isRevoked('s2', 500)).toBe(false);
    expect(list.isRevoked('s1', 1_001)).toBe(false);
  });

  it('tells listeners about each revocation', () => {
    const list = new RevocationList(1_000);
    const listener = vi.fn();
    list.onRevoke(listener);
    list.revoke('s1');
    expect(listener).toHaveBeenCalledWith('s1');
  });
});
