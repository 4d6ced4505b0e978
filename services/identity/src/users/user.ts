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
/** Her role is now `role` (granted or revoked); `grantedBy`: the admin who changed it (absent: the command line, or before it was recorded). */
export type RoleGranted = DomainEvent<'RoleGranted', { userId: string; role: Role; grantedAt: string; grantedBy?: string | null }>;
export type StudyStartDateRecorded = DomainEvent<'StudyStartDateRecorded', { userId: string; studyStartDate: string; recordedAt: string }>;
/** The whole profile after the change. */
export type ProfileUpdated = DomainEvent<'ProfileUpdated', { userId: string } & Profile & { updatedAt: string }>;
export type PasswordChanged = DomainEvent<'PasswordChanged', { userId: string; passwordHash: string; changedAt: string }>;
/** Only the SHA-256 of the token is recorded; the token itself is in the e-mail alone. */
export type PasswordResetRequested = DomainEvent<
  'PasswordResetRequested',
  { userId: string; tokenId: string; tokenHash: string; requestedAt: string; expiresAt: string }
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

export type UserState =
  | { status: 'unregistered' }
  | {
      status: 'registered';
      userId: string;
      email: string;
      role: Role;
      studyStartDate: string | null;
      profile: Profile;
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
      const { tokenId, tokenHash, expiresAt, requestedAt } = event.data;
      // Tokens that had expired by now are forgotten, so the state stays small.
      const live = state.resetTokens.filter((token) => token.expiresAt > requestedAt);
      return { ...state, resetTokens: [...live, { tokenId, tokenHash, expiresAt }] };
    }
    // A new password, however it was set, voids every outstanding reset link.
    case 'PasswordReset':
    case 'PasswordChanged':
      return { ...state, resetTokens: [] };
    default:
      return state;
  }
}
