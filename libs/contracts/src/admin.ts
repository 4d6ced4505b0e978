import { z } from 'zod';
import { CalendarDate, Role, Uuid } from './common.ts';
import { HormonalStage, Timezone } from './profile.ts';
import { SleepwearMaterial, StudyPhase } from './study-protocol.ts';

/**
 * The admin dashboard's HTTP shapes (docs/admin.md): statistics, the paged list of users,
 * one user's detail, the audit trail, and role changes. Served by research-export (its
 * admin read model) except the role change, which is identity's.
 */

/** Active Users: she logged a night or wrote a journal entry within this many days. */
export const ACTIVE_USER_DAYS = 7;
/** The follow-up filter: an ongoing participant whose last logged night is this many days ago or more. */
export const NOT_LOGGED_DAYS = 3;

/** GET /api/admin/stats: the four tiles. */
export const AdminStats = z.object({
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
  totalSleepLogs: z.number().int(),
  totalJournalEntries: z.number().int(),
  /** The window Active Users counts (ACTIVE_USER_DAYS), so the screen can say what it means. */
  activeDays: z.number().int(),
});
export type AdminStats = z.infer<typeof AdminStats>;

export const AdminUserSort = z.enum(['joined', 'name', 'compliance', 'lastLog']);
export type AdminUserSort = z.infer<typeof AdminUserSort>;

/** The phase filter: her current study phase, or not enrolled (no consent yet). */
export const AdminPhaseFilter = z.enum(['not_enrolled', ...StudyPhase.options]);
export type AdminPhaseFilter = z.infer<typeof AdminPhaseFilter>;

export const ADMIN_SEARCH_MAX = 200;
/** Users a page of the list (`limit`; more is clamped to it). */
export const ADMIN_USERS_LIMIT = 100;
/** Entries a page of the audit trail and of her "Who looked at your data" (`limit`; more is clamped to it). */
export const AUDIT_LIMIT = 100;

const flag = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((value) => value === 'true');

/**
 * GET /api/admin/users?q=&sort=&order=&phase=&notLogged=&limit=&cursor=: a page of the list
 * (keyset: `limit` users after `cursor`, the next page's cursor in the X-Next-Cursor header;
 * docs/architecture.md "Paging"). `limit` and `cursor` are the service's (libs/service-kit
 * paging); these are the list's own.
 */
export const AdminUsersQuery = z.object({
  /** Part of her name or e-mail (case-insensitive). */
  q: z.string().trim().max(ADMIN_SEARCH_MAX, `q must be at most ${ADMIN_SEARCH_MAX} characters`).optional(),
  sort: AdminUserSort.default('joined'),
  order: z.enum(['asc', 'desc']).default('desc'),
  phase: AdminPhaseFilter.optional(),
  /** Only ongoing participants who have not logged a night for NOT_LOGGED_DAYS days or more. */
  notLogged: flag.optional(),
});
export type AdminUsersQuery = z.input<typeof AdminUsersQuery>;

/** Where a participant stands in the study tonight, in her time zone (null: not enrolled). */
export const AdminStudyProgress = z.object({
  studyStartDate: CalendarDate,
  /**
   * The study day of her current night (the night she is in or sleeps next; day 1 is the
   * start date, and a night before it shows as day 1, as on her home page); above 42 once
   * the study is complete.
   */
  day: z.number().int(),
  phase: StudyPhase,
  /** 'Polyester', 'Washout', 'Linen' or 'Study Complete'. */
  phaseName: z.string(),
  dayInPhase: z.number().int().nullable(),
  daysInPhase: z.number().int().nullable(),
  /** Study nights that have ended (at most 42): the night of date D is due from 04:00 on D + 1, her time. */
  nightsElapsed: z.number().int(),
  /** Nights she logged among those. */
  nightsLogged: z.number().int(),
  /** nightsLogged ÷ nightsElapsed × 100, rounded; null before the first night is due. */
  compliancePercent: z.number().int().nullable(),
});
export type AdminStudyProgress = z.infer<typeof AdminStudyProgress>;

/** docs/product.md §3 "Admin user list item", and what the study team follows up on. */
export const AdminUserListItem = z.object({
  id: Uuid,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  dateOfBirth: CalendarDate.nullable(),
  /** Whole years today; null without a date of birth. */
  age: z.number().int().nullable(),
  hormonalStage: HormonalStage.nullable(),
  role: Role,
  /** When she joined (registered), ISO date-time. */
  createdAt: z.string(),
  sleepLogCount: z.number().int(),
  journalEntryCount: z.number().int(),
  /** The spec's compliance: sleep logs ÷ days since joining (at least 1) × 100, rounded. */
  compliancePercent: z.number().int(),
  study: AdminStudyProgress.nullable(),
  /**
   * The date of her latest logged night, and how many days ago that is in her time zone
   * (-1: tomorrow's night, logged ahead).
   */
  lastLogDate: CalendarDate.nullable(),
  daysSinceLastLog: z.number().int().nullable(),
  /**
   * Someone to follow up (the list's filter `notLogged`, its badge): still in the study, and
   * her last logged night that has ended (a night logged ahead does not count) is
   * NOT_LOGGED_DAYS or more before her current one, or she has logged none since the eve of
   * her start that long ago.
   */
  followUp: z.boolean(),
});
export type AdminUserListItem = z.infer<typeof AdminUserListItem>;

/** GET /api/admin/users: a page of the list (the next page's cursor in X-Next-Cursor). */
export const AdminUserList = z.array(AdminUserListItem);
export type AdminUserList = z.infer<typeof AdminUserList>;

/** One of her five most recent nights in the detail panel. */
export const AdminSleepLogSummary = z.object({
  id: Uuid,
  date: CalendarDate,
  sleepwearMaterial: SleepwearMaterial.nullable(),
  /** Her sleep quality, 1-10. */
  sleepQuality110: z.number().nullable(),
  fabricComfort: z.string().nullable(),
});
export type AdminSleepLogSummary = z.infer<typeof AdminSleepLogSummary>;

/** GET /api/admin/user/{id}: the list item and her profile, consent and latest nights. */
export const AdminUserDetail = AdminUserListItem.extend({
  timezone: Timezone,
  consent: z.boolean(),
  consentedAt: z.string().nullable(),
  sleepLogs: z.array(AdminSleepLogSummary),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetail>;

/** The kinds of export (GET /api/admin/export/{kind}); the file is `<kind>-YYYY-MM-DD.csv`. */
export const AdminExportKind = z.enum(['users', 'sleep']);
export type AdminExportKind = z.infer<typeof AdminExportKind>;

export const AdminAuditAction = z.enum([
  'participant_viewed',
  'users_exported',
  'sleep_exported',
  'research_downloaded',
  'role_granted',
  'role_revoked',
  'account_deleted',
]);
export type AdminAuditAction = z.infer<typeof AdminAuditAction>;

/** The actions of the audit trail about everyone's data, not one person's (an entry of any other names whose, or "a deleted account"). */
export const ADMIN_EXPORT_ACTIONS: ReadonlySet<AdminAuditAction> = new Set(['users_exported', 'sleep_exported', 'research_downloaded']);

/** Someone named in the audit trail; every field null once that account was deleted. */
export const AuditPerson = z.object({
  id: Uuid.nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export type AuditPerson = z.infer<typeof AuditPerson>;

export const AdminAuditEntry = z.object({
  id: Uuid,
  action: AdminAuditAction,
  /** ISO date-time. */
  at: z.string(),
  /** The admin who did it; null for a role granted from the command line (npm run admin:grant). */
  actor: AuditPerson.nullable(),
  /**
   * Whose data or role: null for an export of everyone (ADMIN_EXPORT_ACTIONS); a deleted
   * account, every field null, for an account an admin deleted, and for any entry about
   * someone deleted since.
   */
  subject: AuditPerson.nullable(),
  /** A research zip downloaded: its file name (null for anything else, and for a download recorded before 2026-12-07). */
  fileName: z.string().nullable(),
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntry>;

/** GET /api/admin/audit: newest first, a page at a time (`limit`, `cursor`; the next in X-Next-Cursor). */
export const AdminAuditList = z.array(AdminAuditEntry);
export type AdminAuditList = z.infer<typeof AdminAuditList>;

/** GET /api/research/audit/me: who looked at her data, and when (Settings). */
export const MyDataAccessEntry = z.object({
  id: Uuid,
  action: z.enum(['participant_viewed', 'users_exported', 'sleep_exported', 'research_downloaded']),
  at: z.string(),
  /** The admin's name; null once that account was deleted. */
  by: z.string().nullable(),
});
export type MyDataAccessEntry = z.infer<typeof MyDataAccessEntry>;

/** Newest first, a page at a time (`limit`, `cursor`; the next in X-Next-Cursor). */
export const MyDataAccessList = z.array(MyDataAccessEntry);
export type MyDataAccessList = z.infer<typeof MyDataAccessList>;

/** PUT /api/admin/users/{id}/role (identity): grant (`admin`) or revoke (`participant`). */
export const SetRoleRequest = z.object({ role: Role });
export type SetRoleRequest = z.infer<typeof SetRoleRequest>;
export const SetRoleResponse = z.object({ message: z.string(), role: Role });
export type SetRoleResponse = z.infer<typeof SetRoleResponse>;

export const LAST_ADMIN_MESSAGE = 'This is the last admin: grant the admin role to someone else before revoking this one.';
export const LAST_ADMIN_DELETION_MESSAGE = 'This is the last admin: grant the admin role to someone else before deleting this account.';
