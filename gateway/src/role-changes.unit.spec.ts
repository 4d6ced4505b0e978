import { describe, expect, it } from 'vitest';
import { RoleChanges } from './role-changes.ts';

describe('RoleChanges', () => {
  it('calls a token stale when her role changed to another, until its memory runs out', () => {
    const roles = new RoleChanges(1_000);
    expect(roles.isStale('u1', 'admin', 0)).toBe(false); // nothing known: the token stands
    roles.changed('u1', 'participant', 0); // her admin role was revoked
    expect(roles.isStale('u1', 'admin', 500)).toBe(true);
    expect(roles.isStale('u1', 'participant', 500)).toBe(false); // a token signed after the change
    expect(roles.isStale('u2', 'admin', 500)).toBe(false);
    expect(roles.isStale('u1', 'admin', 1_001)).toBe(false); // older tokens have expired by then
  });

  it('keeps the latest change of a user', () => {
    const roles = new RoleChanges(1_000);
    roles.changed('u1', 'admin', 0);
    roles.changed('u1', 'participant', 10);
    expect(roles.isStale('u1', 'admin', 20)).toBe(true);
    expect(roles.isStale('u1', 'participant', 20)).toBe(false);
  });
});
