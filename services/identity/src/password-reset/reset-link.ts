import type { Decider } from '@sleepweave/event-store';
import type { PasswordResetRequested, ResetLink } from '../users/user.ts';

/**
 * One reset link, a stream of its own. In her `user:` stream, which every command of hers
 * reads whole, anyone who knew her address could add an event every five minutes (the
 * per-e-mail limit), for good: 100,000 a year, each command on her account slower by as
 * much. A link's stream is removed a day after the link expired (password-reset/retention.ts).
 */
export const resetLinkStreamId = (tokenId: string) => `password_reset:${tokenId}`;

export type RequestResetLink = {
  type: 'RequestPasswordReset';
  /** `passwordVersion`: her password's version now, read by the caller under her stream's lock. */
  data: { userId: string; tokenId: string; tokenHash: string; ttlMinutes: number; passwordVersion: number; now: Date };
};

export type ResetLinkState = { status: 'none' } | ({ status: 'requested' } & ResetLink);

export class ResetLinkExists extends Error {
  override name = 'ResetLinkExists';
}

export const resetLinkDecider: Decider<RequestResetLink, ResetLinkState, PasswordResetRequested> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => {
    const { userId, tokenId, tokenHash, expiresAt, passwordVersion } = event.data;
    return { status: 'requested', userId, tokenId, tokenHash, expiresAt, passwordVersion: passwordVersion ?? 0 };
  },
  decide: (command, state) => {
    if (state.status !== 'none') throw new ResetLinkExists(`Reset link ${command.data.tokenId} exists`);
    const { userId, tokenId, tokenHash, ttlMinutes, passwordVersion, now } = command.data;
    const expiresAt = new Date(now.getTime() + ttlMinutes * 60_000).toISOString();
    return [
      { type: 'PasswordResetRequested', data: { userId, tokenId, tokenHash, requestedAt: now.toISOString(), expiresAt, passwordVersion } },
    ];
  },
};

/** The link the stream holds, or null. */
export function linkOf(state: ResetLinkState): ResetLink | null {
  if (state.status !== 'requested') return null;
  const { status: _status, ...link } = state;
  return link;
}
