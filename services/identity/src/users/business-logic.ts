import type { HormonalStage, Role, Timezone } from '@sleepweave/contracts';
import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type Profile, type ResetLink, type UserEvent, type UserState } from './user.ts';

/** A reset link works for this long (and once). */
export const RESET_TOKEN_TTL_MINUTES = 60;

export type RegisterUser = {
  type: 'RegisterUser';
  data: {
    userId: string;
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string | null;
    timezone: Timezone;
    hormonalStage: HormonalStage | null;
    role: Role;
    now: Date;
  };
};
export type GrantRole = { type: 'GrantRole'; data: { userId: string; role: Role; now: Date; grantedBy?: string | null } };
/**
 * An admin takes the admin role away (she becomes a participant). `admins`: how many admins
 * there are now, counted by the caller under the role lock (deciders are pure).
 */
export type RevokeAdminRole = { type: 'RevokeAdminRole'; data: { userId: string; revokedBy: string; admins: number; now: Date } };
export type RecordStudyStartDate = {
  type: 'RecordStudyStartDate';
  data: { userId: string; studyStartDate: string; now: Date };
};
export type UpdateProfile = {
  type: 'UpdateProfile';
  data: {
    userId: string;
    firstName: string;
    lastName: string;
    timezone: Timezone;
    hormonalStage: HormonalStage;
    now: Date;
    /** The profile her form was filled from (see UpdateProfileRequest.expected). */
    expected?: EditableProfile | undefined;
  };
};

/** The fields of her profile she edits, by the names the product shows. */
export const EDITABLE_PROFILE = {
  firstName: 'First name',
  lastName: 'Last name',
  timezone: 'Timezone',
  hormonalStage: 'Hormonal stage',
} as const;
type EditableField = keyof typeof EDITABLE_PROFILE;
export type EditableProfile = { [K in EditableField]: string | null };

/** A field she changed was changed to something else meanwhile (another tab, another device). */
export class ProfileChangedMeanwhile extends Error {
  override name = 'ProfileChangedMeanwhile';
  constructor(
    readonly field: EditableField,
    /** What it is now. */
    readonly current: string | null,
  ) {
    super(`${EDITABLE_PROFILE[field]} was changed meanwhile`);
  }
}
/** The current password has been verified by the caller (argon2 is async; deciders are pure). */
export type ChangePassword = { type: 'ChangePassword'; data: { userId: string; passwordHash: string; now: Date } };
/** `link`: the link with that hash, read from its own stream (null: none there). */
export type ResetPassword = {
  type: 'ResetPassword';
  data: { userId: string; tokenHash: string; passwordHash: string; now: Date; link: ResetLink | null };
};
export type UserCommand =
  RegisterUser | GrantRole | RevokeAdminRole | RecordStudyStartDate | UpdateProfile | ChangePassword | ResetPassword;

export class UserAlreadyRegistered extends Error {
  override name = 'UserAlreadyRegistered';
}
export class UserNotFound extends Error {
  override name = 'UserNotFound';
}
/** Revoking the admin role of the only admin would leave nobody to run the study. */
export class LastAdmin extends Error {
  override name = 'LastAdmin';
}
/** Unknown, used, voided or expired: the link cannot reset the password. */
export class InvalidResetToken extends Error {
  override name = 'InvalidResetToken';
}

export function register(command: RegisterUser, state: UserState): UserEvent[] {
  if (state.status !== 'unregistered') throw new UserAlreadyRegistered('This user is already registered');
  const { now, ...data } = command.data;
  return [{ type: 'UserRegistered', data: { ...data, registeredAt: now.toISOString() } }];
}

export function grantRole(command: GrantRole, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new UserNotFound('No such user');
  const { userId, role, now, grantedBy } = command.data;
  if (state.role === role) return [];
  return [
    {
      type: 'RoleGranted',
      data: {
        userId,
        role,
        grantedAt: now.toISOString(),
        ...(grantedBy === undefined ? {} : { grantedBy }),
        via: grantedBy ? 'admin' : 'command_line',
      },
    },
  ];
}

/** She is a participant again; never the last admin (there must always be one). */
export function revokeAdminRole(command: RevokeAdminRole, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new UserNotFound('No such user');
  const { userId, revokedBy, admins, now } = command.data;
  if (state.role !== 'admin') return [];
  if (admins <= 1) throw new LastAdmin('This is the last admin');
  return [{ type: 'RoleGranted', data: { userId, role: 'participant', grantedAt: now.toISOString(), grantedBy: revokedBy, via: 'admin' } }];
}

/** The study starts once: a later consent event does not move the date. */
export function recordStudyStartDate(command: RecordStudyStartDate, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new UserNotFound('No such user');
  if (state.studyStartDate !== null) return [];
  const { userId, studyStartDate, now } = command.data;
  return [{ type: 'StudyStartDateRecorded', data: { userId, studyStartDate, recordedAt: now.toISOString() } }];
}

/** Emits the whole profile after the change; a change to nothing decides nothing. */
export function updateProfile(command: UpdateProfile, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new UserNotFound('No such user');
  const { userId, now, expected, ...changes } = command.data;
  // With the profile her form was filled from, a three-way merge: what she left as it was
  // keeps its current value (a save from another tab meanwhile stays); what she changed is
  // hers, unless it was changed meanwhile to something else.
  const profile: Profile = { ...state.profile };
  for (const field of Object.keys(EDITABLE_PROFILE) as EditableField[]) {
    const mine = changes[field];
    if (expected === undefined) {
      profile[field] = mine as never;
      continue;
    }
    if (mine === expected[field]) continue;
    const current = state.profile[field];
    if (current !== expected[field] && current !== mine) throw new ProfileChangedMeanwhile(field, current);
    profile[field] = mine as never;
  }
  const unchanged = (Object.keys(profile) as (keyof Profile)[]).every((key) => profile[key] === state.profile[key]);
  if (unchanged) return [];
  return [{ type: 'ProfileUpdated', data: { userId, ...profile, updatedAt: now.toISOString() } }];
}

export function changePassword(command: ChangePassword, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new UserNotFound('No such user');
  const { userId, passwordHash, now } = command.data;
  return [{ type: 'PasswordChanged', data: { userId, passwordHash, changedAt: now.toISOString() } }];
}

/**
 * A link of hers, asked for under her current password and not yet expired, resets the
 * password once (the reset makes a new password version, which voids it and every other).
 * Links of before 2026-12-06 are in her state instead.
 */
export function resetPassword(command: ResetPassword, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new InvalidResetToken('Invalid or expired reset token');
  const { userId, tokenHash, passwordHash, now, link } = command.data;
  const current = link && link.userId === userId && link.tokenHash === tokenHash && link.passwordVersion === state.passwordVersion;
  const token = current ? link : state.resetTokens.find((t) => t.tokenHash === tokenHash);
  if (!token || token.expiresAt <= now.toISOString()) throw new InvalidResetToken('Invalid or expired reset token');
  return [{ type: 'PasswordReset', data: { userId, tokenId: token.tokenId, passwordHash, resetAt: now.toISOString() } }];
}

export function decide(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      return register(command, state);
    case 'GrantRole':
      return grantRole(command, state);
    case 'RevokeAdminRole':
      return revokeAdminRole(command, state);
    case 'RecordStudyStartDate':
      return recordStudyStartDate(command, state);
    case 'UpdateProfile':
      return updateProfile(command, state);
    case 'ChangePassword':
      return changePassword(command, state);
    case 'ResetPassword':
      return resetPassword(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = { decide, evolve, initialState };
