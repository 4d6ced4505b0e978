import { deciderSpec, fold } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import {
  InvalidResetToken,
  LastAdmin,
  ProfileChangedMeanwhile,
  userDecider,
  UserAlreadyRegistered,
  UserNotFound,
  type RegisterUser,
} from './business-logic.ts';
import type { ResetLink, UserEvent } from './user.ts';

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

  it('grants the admin role once, from the command line when no admin is named; granting again decides nothing', () => {
    const grant = { type: 'GrantRole' as const, data: { userId, role: 'admin' as const, now } };
    const granted: UserEvent = { type: 'RoleGranted', data: { userId, role: 'admin', grantedAt: now.toISOString(), via: 'command_line' } };
    spec.given([registered]).when(grant).then([granted]);
    spec.given([registered, granted]).when(grant).then([]);
  });

  it('records which admin granted the role', () => {
    const adminId = '0b7a1c52-3c1e-4a53-9a0e-0a7c7c1d2f99';
    spec
      .given([registered])
      .when({ type: 'GrantRole', data: { userId, role: 'admin', now, grantedBy: adminId } })
      .then([{ type: 'RoleGranted', data: { userId, role: 'admin', grantedAt: now.toISOString(), grantedBy: adminId, via: 'admin' } }]);
  });

  describe('revoking the admin role', () => {
    const adminId = '0b7a1c52-3c1e-4a53-9a0e-0a7c7c1d2f99';
    const granted: UserEvent = { type: 'RoleGranted', data: { userId, role: 'admin', grantedAt: now.toISOString() } };
    const revoke = (admins: number) => ({ type: 'RevokeAdminRole' as const, data: { userId, revokedBy: adminId, admins, now } });

    it('makes her a participant again, recording who revoked it, while another admin remains', () => {
      spec
        .given([registered, granted])
        .when(revoke(2))
        .then([
          { type: 'RoleGranted', data: { userId, role: 'participant', grantedAt: now.toISOString(), grantedBy: adminId, via: 'admin' } },
        ]);
    });

    it('never takes it from the last admin', () => {
      spec.given([registered, granted]).when(revoke(1)).thenThrows(LastAdmin);
    });

    it('decides nothing for someone who is not an admin, however few admins there are', () => {
      spec.given([registered]).when(revoke(1)).then([]);
    });

    it('refuses an unknown user', () => {
      spec.given([]).when(revoke(3)).thenThrows(UserNotFound);
    });
  });

  it('refuses a role for an unknown user', () => {
    spec
      .given([])
      .when({ type: 'GrantRole', data: { userId, role: 'admin', now } })
      .thenThrows(UserNotFound);
  });

  it('records the study start date once; a later consent does not move it', () => {
    const record = (studyStartDate: string) => ({ type: 'RecordStudyStartDate' as const, data: { userId, studyStartDate, now } });
    const recorded: UserEvent = {
      type: 'StudyStartDateRecorded',
      data: { userId, studyStartDate: '2026-11-20', recordedAt: now.toISOString() },
    };
    spec.given([registered]).when(record('2026-11-20')).then([recorded]);
    spec.given([registered, recorded]).when(record('2026-12-01')).then([]);
  });

  describe('profile', () => {
    const update = (
      changes: Partial<{
        firstName: string;
        lastName: string;
        timezone: 'Europe/Paris' | 'Europe/London';
        hormonalStage: 'Post menopause' | 'Menopause';
      }> = {},
    ) => ({
      type: 'UpdateProfile' as const,
      data: {
        userId,
        firstName: 'Maya',
        lastName: 'Lindqvist',
        timezone: 'Europe/London' as const,
        hormonalStage: 'Menopause' as const,
        now,
        ...changes,
      },
    });

    it('records the whole profile after a change (date of birth and image kept)', () => {
      spec
        .given([registered])
        .when(update({ hormonalStage: 'Post menopause', timezone: 'Europe/Paris', lastName: 'Berg' }))
        .then([
          {
            type: 'ProfileUpdated',
            data: {
              userId,
              firstName: 'Maya',
              lastName: 'Berg',
              dateOfBirth: '1972-04-18',
              timezone: 'Europe/Paris',
              hormonalStage: 'Post menopause',
              profileImageUrl: null,
              updatedAt: now.toISOString(),
            },
          },
        ]);
    });

    it('decides nothing when nothing changes', () => {
      spec.given([registered]).when(update()).then([]);
    });

    it('refuses a profile for an unknown (or deleted) user', () => {
      spec.given([]).when(update()).thenThrows(UserNotFound);
    });

    describe('with the profile her form was filled from (two tabs)', () => {
      const filledFrom = { firstName: 'Maya', lastName: 'Lindqvist', timezone: 'Europe/London', hormonalStage: 'Menopause' };
      // another tab moved her to Paris after this form was filled
      const movedToParis: UserEvent = {
        type: 'ProfileUpdated',
        data: {
          userId,
          firstName: 'Maya',
          lastName: 'Lindqvist',
          dateOfBirth: '1972-04-18',
          timezone: 'Europe/Paris',
          hormonalStage: 'Menopause',
          profileImageUrl: null,
          updatedAt: now.toISOString(),
        },
      };
      const withExpected = (changes: Parameters<typeof update>[0]) => {
        const command = update(changes);
        return { ...command, data: { ...command.data, expected: filledFrom } };
      };
      const profileAfter = (events: unknown[]) => (events[0] as { data: Record<string, unknown> } | undefined)?.data;

      it('keeps what the other tab saved in the fields she left as they were', () => {
        const events = userDecider.decide(withExpected({ lastName: 'Berg' }), fold(userDecider, [registered, movedToParis]));
        expect(profileAfter(events)).toMatchObject({ lastName: 'Berg', timezone: 'Europe/Paris', firstName: 'Maya' });
      });

      it('refuses a field she changed that was changed to something else meanwhile, naming it and what it is now', () => {
        const thrown = spec
          .given([registered, movedToParis])
          .when({ ...withExpected({}), data: { ...withExpected({}).data, timezone: 'America/New_York' as never } })
          .thenThrows(ProfileChangedMeanwhile);
        expect(thrown).toMatchObject({ field: 'timezone', current: 'Europe/Paris' });
      });

      it('takes a change both made alike', () => {
        const events = userDecider.decide(
          withExpected({ timezone: 'Europe/Paris', lastName: 'Berg' }),
          fold(userDecider, [registered, movedToParis]),
        );
        expect(profileAfter(events)).toMatchObject({ lastName: 'Berg', timezone: 'Europe/Paris' });
      });
    });
  });

  describe('password reset', () => {
    const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    const tokenA = 'a1b2c3d4-0000-4000-8000-00000000000a';
    const tokenB = 'a1b2c3d4-0000-4000-8000-00000000000b';
    /** A link from its own stream, asked for under password version `version`. */
    const link = (tokenId: string, tokenHash: string, version = 1, at = now): ResetLink => ({
      userId,
      tokenId,
      tokenHash,
      expiresAt: new Date(at.getTime() + 3_600_000).toISOString(),
      passwordVersion: version,
    });
    const reset = (tokenHash: string, at: Date, given: ResetLink | null) => ({
      type: 'ResetPassword' as const,
      data: { userId, tokenHash, passwordHash: '$argon2id$new', now: at, link: given },
    });
    const resetWith = (tokenId: string, at: Date): UserEvent => ({
      type: 'PasswordReset',
      data: { userId, tokenId, passwordHash: '$argon2id$new', resetAt: at.toISOString() },
    });
    const changed: UserEvent = { type: 'PasswordChanged', data: { userId, passwordHash: 'h', changedAt: later(1).toISOString() } };

    it('resets the password with a link of hers asked for under her current password, within the hour', () => {
      spec
        .given([registered])
        .when(reset('hash-a', later(59), link(tokenA, 'hash-a')))
        .then([resetWith(tokenA, later(59))]);
    });

    it('refuses no link, an expired link, a link of someone else and a link whose hash is another', () => {
      spec
        .given([registered])
        .when(reset('hash-a', later(1), null))
        .thenThrows(InvalidResetToken);
      spec
        .given([registered])
        .when(reset('hash-a', later(60), link(tokenA, 'hash-a')))
        .thenThrows(InvalidResetToken);
      spec
        .given([registered])
        .when(reset('hash-a', later(1), { ...link(tokenA, 'hash-a'), userId: '0b0b0b0b-0000-4000-8000-000000000000' }))
        .thenThrows(InvalidResetToken);
      spec
        .given([registered])
        .when(reset('hash-x', later(1), link(tokenA, 'hash-a')))
        .thenThrows(InvalidResetToken);
      spec
        .given([])
        .when(reset('hash-a', later(1), link(tokenA, 'hash-a')))
        .thenThrows(InvalidResetToken);
    });

    it('takes a link once, and voids every other sent before a new password (reset or changed)', () => {
      // used: her password is at version 2 now
      spec
        .given([registered, resetWith(tokenA, later(1))])
        .when(reset('hash-a', later(2), link(tokenA, 'hash-a')))
        .thenThrows(InvalidResetToken);
      spec
        .given([registered, resetWith(tokenA, later(1))])
        .when(reset('hash-b', later(2), link(tokenB, 'hash-b')))
        .thenThrows(InvalidResetToken);
      spec
        .given([registered, changed])
        .when(reset('hash-b', later(2), link(tokenB, 'hash-b')))
        .thenThrows(InvalidResetToken);
      // one asked for after the change works
      const state = spec
        .given([registered, changed])
        .when(reset('hash-b', later(2), link(tokenB, 'hash-b', 2)))
        .then([resetWith(tokenB, later(2))]);
      expect(state.status === 'registered' && state.passwordVersion).toBe(3);
    });

    describe('links recorded in her stream before 2026-12-06', () => {
      const requested = (tokenId: string, tokenHash: string, at = now): UserEvent => ({
        type: 'PasswordResetRequested',
        data: { userId, tokenId, tokenHash, requestedAt: at.toISOString(), expiresAt: new Date(at.getTime() + 3_600_000).toISOString() },
      });

      it('still reset the password while valid, once, and a new password voids them', () => {
        spec
          .given([registered, requested(tokenA, 'hash-a')])
          .when(reset('hash-a', later(59), null))
          .then([resetWith(tokenA, later(59))]);
        spec
          .given([registered, requested(tokenA, 'hash-a')])
          .when(reset('hash-a', later(60), null))
          .thenThrows(InvalidResetToken);
        spec
          .given([registered, requested(tokenA, 'hash-a'), resetWith(tokenA, later(1))])
          .when(reset('hash-a', later(2), null))
          .thenThrows(InvalidResetToken);
        spec
          .given([registered, requested(tokenB, 'hash-b'), changed])
          .when(reset('hash-b', later(2), null))
          .thenThrows(InvalidResetToken);
      });

      it('are forgotten once expired, so the state stays small', () => {
        const state = fold(userDecider, [registered, requested(tokenA, 'hash-a'), requested(tokenB, 'hash-b', later(61))]);
        expect(state.status === 'registered' && state.resetTokens.map((t) => t.tokenId)).toEqual([tokenB]);
      });
    });
  });

  it('changes the password of a registered user only', () => {
    const change = { type: 'ChangePassword' as const, data: { userId, passwordHash: '$argon2id$changed', now } };
    spec
      .given([registered])
      .when(change)
      .then([{ type: 'PasswordChanged', data: { userId, passwordHash: '$argon2id$changed', changedAt: now.toISOString() } }]);
    spec.given([]).when(change).thenThrows(UserNotFound);
  });
});
