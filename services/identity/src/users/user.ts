import type { HormonalStage, Role, Timezone } from '@sleepweave/contracts';
import type { DomainEvent } from '@sleepweave/event-store';

export const userStreamId = (userId: string) => `user:${userId}`;

/** The profile other services keep a copy of (identity.user.profile_updated carries all of it). */
export type Profile = {
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  timezone: Timezone;
  hormonalStage: HormonalStage | null;
  profileImageUrl: string | null;
};

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    userId: string;
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string | null;
    timezone: Timezone;
    hormonalStage: HormonalStage | null;
    role: Role;
    registeredAt: string;
  }
>;
/**
 * Her role is now `role` (granted or revoked); `grantedBy`: the admin who changed it (absent:
 * the command line, or before it was recorded; null once that admin's account was deleted);
 * `via`: an admin or the command line, kept when `grantedBy` is cleared (absent before it was
 * recorded).
 */
export type RoleGranted = DomainEvent<
  'RoleGranted',
  { userId: string; role: Role; grantedAt: string; grantedBy?: string | null; via?: RoleChangeVia }
>;
export type RoleChangeVia = 'admin' | 'command_line';
export type StudyStartDateRecorded = DomainEvent<'StudyStartDateRecorded', { userId: string; studyStartDate: string; recordedAt: string }>;
/** The whole profile after the change. */
export type ProfileUpdated = DomainEvent<'ProfileUpdated', { userId: string } & Profile & { updatedAt: string }>;
export type PasswordChanged = DomainEvent<'PasswordChanged', { userId: string; passwordHash: string; changedAt: string }>;
/**
 * A reset link was sent. Only the SHA-256 of the token is recorded; the token itself is in
 * the e-mail alone. Recorded in the link's own stream (`password_reset:<tokenId>`, with
 * `passwordVersion`: her password's version when it was asked for); links asked for before
 * 2026-12-06 were recorded in her `user:` stream, without it.
 */
export type PasswordResetRequested = DomainEvent<
  'PasswordResetRequested',
  { userId: string; tokenId: string; tokenHash: string; requestedAt: string; expiresAt: string; passwordVersion?: number }
>;
export type PasswordReset = DomainEvent<'PasswordReset', { userId: string; tokenId: string; passwordHash: string; resetAt: string }>;

export type UserEvent =
  UserRegistered | RoleGranted | StudyStartDateRecorded | ProfileUpdated | PasswordChanged | PasswordResetRequested | PasswordReset;

/** A reset token that can still be used (until it expires, or any password change voids it). */
export interface PendingResetToken {
  tokenId: string;
  tokenHash: string;
  expiresAt: string;
}

/** A link from its own stream (`password_reset:<tokenId>`), as a reset is decided on. */
export interface ResetLink extends PendingResetToken {
  userId: string;
  /** Her password's version when the link was asked for. */
  passwordVersion: number;
}

export type UserState =
  | { status: 'unregistered' }
  | {
      status: 'registered';
      userId: string;
      email: string;
      role: Role;
      studyStartDate: string | null;
      profile: Profile;
      /**
       * Her password's version: 1 at registration, one more at each change or reset. A
       * reset link works only for the version it was asked under (any new password voids
       * every link sent before).
       */
      passwordVersion: number;
      /** Links recorded in this stream (before 2026-12-06), while they may still be used. */
      resetTokens: PendingResetToken[];
    };

export const initialState = (): UserState => ({ status: 'unregistered' });

export function evolve(state: UserState, event: UserEvent): UserState {
  if (event.type === 'UserRegistered') {
    const d = event.data;
    return {
      status: 'registered',
      userId: d.userId,
      email: d.email,
      role: d.role,
      studyStartDate: null,
      profile: {
        firstName: d.firstName,
        lastName: d.lastName,
        dateOfBirth: d.dateOfBirth,
        timezone: d.timezone,
        hormonalStage: d.hormonalStage,
        profileImageUrl: null,
      },
      passwordVersion: 1,
      resetTokens: [],
    };
  }
  if (state.status !== 'registered') return state;
  switch (event.type) {
    case 'RoleGranted':
      return { ...state, role: event.data.role };
    case 'StudyStartDateRecorded':
      return { ...state, studyStartDate: event.data.studyStartDate };
    case 'ProfileUpdated': {
      const { userId: _id, updatedAt: _at, ...profile } = event.data;
      return { ...state, profile };
    }
    case 'PasswordResetRequested': {
      // (only links of before 2026-12-06 are in this stream)
      const { tokenId, tokenHash, expiresAt, requestedAt } = event.data;
      // Tokens that had expired by now are forgotten, so the state stays small.
      const live = state.resetTokens.filter((token) => token.expiresAt > requestedAt);
      return { ...state, resetTokens: [...live, { tokenId, tokenHash, expiresAt }] };
    }
    // A new password, however it was set, voids every outstanding reset link.
    case 'PasswordReset':
    case 'PasswordChanged':
      return { ...state, passwordVersion: state.passwordVersion + 1, resetTokens: [] };
    default:
      return state;
  }
}
