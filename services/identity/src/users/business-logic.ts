import type { HormonalStage, Role, Timezone } from '@sleepweave/contracts';
import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type UserEvent, type UserState } from './user.ts';

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
export type GrantRole = { type: 'GrantRole'; data: { userId: string; role: Role; now: Date } };
export type RecordStudyStartDate = {
  type: 'RecordStudyStartDate';
  data: { userId: string; studyStartDate: string; now: Date };
};
export type UserCommand = RegisterUser | GrantRole | RecordStudyStartDate;

export class UserAlreadyRegistered extends Error {
  override name = 'UserAlreadyRegistered';
}
export class UserNotFound extends Error {
  override name = 'UserNotFound';
}

export function register(command: RegisterUser, state: UserState): UserEvent[] {
  if (state.status !== 'unregistered') throw new UserAlreadyRegistered('This user is already registered');
  const { now, ...data } = command.data;
  return [{ type: 'UserRegistered', data: { ...data, registeredAt: now.toISOString() } }];
}

export function grantRole(command: GrantRole, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new UserNotFound('No such user');
  if (state.role === command.data.role) return [];
  return [{ type: 'RoleGranted', data: { userId: command.data.userId, role: command.data.role, grantedAt: command.data.now.toISOString() } }];
}

/** The study starts once: a later consent event does not move the date. */
export function recordStudyStartDate(command: RecordStudyStartDate, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new UserNotFound('No such user');
  if (state.studyStartDate !== null) return [];
  const { userId, studyStartDate, now } = command.data;
  return [{ type: 'StudyStartDateRecorded', data: { userId, studyStartDate, recordedAt: now.toISOString() } }];
}

export function decide(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      return register(command, state);
    case 'GrantRole':
      return grantRole(command, state);
    case 'RecordStudyStartDate':
      return recordStudyStartDate(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = { decide, evolve, initialState };
