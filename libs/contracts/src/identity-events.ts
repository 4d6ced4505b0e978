import { z } from 'zod';
import { Role, Uuid } from './common.ts';
import { HormonalStage, Timezone } from './profile.ts';

/** The profile fields other services keep a copy of (names, timezone, stage). */
const Profile = {
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable(),
  timezone: Timezone,
  hormonalStage: HormonalStage.nullable(),
  profileImageUrl: z.string().nullable().default(null),
};

/** Events the identity service publishes. */
export const identityEvents = {
  'identity.user.registered': z.object({
    userId: Uuid,
    email: z.string(),
    ...Profile,
    role: Role,
    registeredAt: z.string(),
  }),
  /** The whole current profile, so a consumer can overwrite its copy. */
  'identity.user.profile_updated': z.object({
    userId: Uuid,
    ...Profile,
    updatedAt: z.string(),
  }),
  /** Her role is now `role`: granted (admin) or revoked (participant). */
  'identity.user.role_granted': z.object({
    userId: Uuid,
    role: Role,
    grantedAt: z.string(),
    /** The admin who changed it (null: from the command line, npm run admin:grant, or ADMIN_EMAILS; an admin since deleted; or before this was recorded). */
    grantedBy: Uuid.nullable().optional(),
    /** How: by an admin (`grantedBy`, cleared once her account is deleted) or from the command line. Absent before it was recorded. */
    via: z.enum(['admin', 'command_line']).optional(),
  }),
  /**
   * The user deleted her account (or an admin did). Every service removes that user's
   * streams and read-model rows when it sees this (docs/data-protection.md).
   */
  'identity.user.deleted': z.object({
    userId: Uuid,
    deletedAt: z.string(),
    /** Who asked: she herself (Settings) or an admin (the admin dashboard). Absent from events of before 2026-12-06. */
    via: z.enum(['self', 'admin']).optional(),
    /** The admin who deleted the account (null: she herself, or an admin since deleted). */
    deletedBy: Uuid.nullable().optional(),
  }),
  'identity.session.revoked': z.object({
    sessionId: Uuid,
    userId: Uuid,
    reason: z.enum(['logout', 'password_reset', 'password_changed', 'account_deleted', 'admin', 'refresh_token_reused', 'session_limit']),
    revokedAt: z.string(),
  }),
} as const;
