import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, it } from 'vitest';
import { userDecider, UserAlreadyRegistered, UserNotFound, type RegisterUser } from './business-logic.ts';
import type { UserEvent } from './user.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const userId = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const profile = {
  userId,
  email: 'maya@example.com',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
  firstName: 'Maya',
  lastName: 'Lindqvist',
  dateOfBirth: '1972-04-18',
  timezone: 'Europe/London' as const,
  hormonalStage: 'Menopause' as const,
  role: 'participant' as const,
};
const registerUser: RegisterUser = { type: 'RegisterUser', data: { ...profile, now } };
const registered: UserEvent = { type: 'UserRegistered', data: { ...profile, registeredAt: now.toISOString() } };

const spec = deciderSpec(userDecider);

describe('user decider', () => {
  it('registers a new user', () => {
    spec.given([]).when(registerUser).then([registered]);
  });

  it('refuses to register the same user twice', () => {
    spec.given([registered]).when(registerUser).thenThrows(UserAlreadyRegistered);
  });

  it('grants the admin role once; granting again decides nothing', () => {
    const grant = { type: 'GrantRole' as const, data: { userId, role: 'admin' as const, now } };
    const granted: UserEvent = { type: 'RoleGranted', data: { userId, role: 'admin', grantedAt: now.toISOString() } };
    spec.given([registered]).when(grant).then([granted]);
    spec.given([registered, granted]).when(grant).then([]);
  });

  it('refuses a role for an unknown user', () => {
    spec.given([]).when({ type: 'GrantRole', data: { userId, role: 'admin', now } }).thenThrows(UserNotFound);
  });

  it('records the study start date once; a later consent does not move it', () => {
    const record = (studyStartDate: string) => ({ type: 'RecordStudyStartDate' as const, data: { userId, studyStartDate, now } });
    const recorded: UserEvent = { type: 'StudyStartDateRecorded', data: { userId, studyStartDate: '2026-11-20', recordedAt: now.toISOString() } };
    spec.given([registered]).when(record('2026-11-20')).then([recorded]);
    spec.given([registered, recorded]).when(record('2026-12-01')).then([]);
  });
});
