import type { HormonalStage, Role, Timezone } from '@sleepweave/contracts';
import type { DomainEvent } from '@sleepweave/event-store';

export const userStreamId = (userId: string) => `user:${userId}`;

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
export type RoleGranted = DomainEvent<'RoleGranted', { userId: string; role: Role; grantedAt: string }>;
export type StudyStartDateRecorded = DomainEvent<
  'StudyStartDateRecorded',
  { userId: string; studyStartDate: string; recordedAt: string }
>;

export type UserEvent = UserRegistered | RoleGranted | StudyStartDateRecorded;

export type UserState =
  | { status: 'unregistered' }
  | { status: 'registered'; userId: string; email: string; role: Role; studyStartDate: string | null };

export const initialState = (): UserState => ({ status: 'unregistered' });

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return { status: 'registered', userId: event.data.userId, email: event.data.email, role: event.data.role, studyStartDate: null };
    case 'RoleGranted':
      return state.status === 'registered' ? { ...state, role: event.data.role } : state;
    case 'StudyStartDateRecorded':
      return state.status === 'registered' ? { ...state, studyStartDate: event.data.studyStartDate } : state;
    default:
      return state;
  }
}
