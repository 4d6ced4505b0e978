import {
  addDays,
  daysBetween,
  NOT_LOGGED_DAYS,
  studyLength,
  type AdminAuditAction,
  type AdminPhaseFilter,
  type AdminUserListItem,
  type AdminUserSort,
  type AuditPerson,
} from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';

/** docs/product.md §2 /admin: 'name or e-mail'. */
export function displayName(user: Pick<AdminUserListItem, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/** 'N/A' for a stage she did not give (the spec's words). */
export const stageText = (stage: string | null) => stage ?? 'N/A';
export const ageText = (age: number | null) => (age === null ? 'N/A' : String(age));

/** "Nov 22, 2026" for a calendar date (YYYY-MM-DD) or an ISO time. */
/** A calendar date (YYYY-MM-DD), as written: 'Nov 22, 2026'. */
export const formatDate = (value: string) => format(parseISO(value), 'MMM d, yyyy');
/** "Nov 22, 2026, 3:05 PM" on the browser's clock. */

/**
 * "Nov 20, 2026 (2 nights missed since)": her last night's date and how many of the nights
 * after it have ended unlogged (her current night, the one she is in or sleeps next, has
 * not: its date stays until 04:00 her time). The night that ended last is "last night",
 * hers tonight (logged ahead of its end) "tonight", tomorrow's "logged ahead"; null without
 * a log. (It said "3 days ago" of a night logged the next afternoon, two days before: a
 * coordinator would have written "we have not heard from you in 3 days".)
 */
export function lastLogText(
  user: Pick<AdminUserListItem, 'lastLogDate' | 'daysSinceLastLog'> & { study?: AdminUserListItem['study'] },
): string | null {
  if (user.lastLogDate === null) return null;
  // After her study, only its nights count: one who logged all 42 missed nothing since ("16
  // nights missed since" read oddly of her; found by an outside tester).
  if (user.study?.phase === 'completed') {
    const missed = daysBetween(user.lastLogDate, addDays(user.study.studyStartDate, studyLength() - 1));
    // (a night logged after it: which of its last nights she logged is not known from this
    // date; the nights logged beside it say how many. It said "study complete".)
    const end =
      missed < 0
        ? 'after her study'
        : missed === 0
          ? "the study's last night"
          : missed === 1
            ? "the study's last night missed"
            : `the study's last ${missed} nights missed`;
    return `${formatDate(user.lastLogDate)} (${end})`;
  }
  const days = user.daysSinceLastLog ?? 0;
  const when = days < 0 ? 'logged ahead' : days === 0 ? 'tonight' : days === 1 ? 'last night' : `${missedNights(days - 1)} missed since`;
  return `${formatDate(user.lastLogDate)} (${when})`;
}

const missedNights = (n: number) => `${n} ${n === 1 ? 'night' : 'nights'}`;

/**
 * The follow-up filter's and badge's words: NOT_LOGGED_DAYS counts from her last night to
 * her current one, so the nights missed in a row are one fewer.
 */
export const FOLLOW_UP_MISSED_NIGHTS = NOT_LOGGED_DAYS - 1;
export const FOLLOW_UP_BADGE = `${FOLLOW_UP_MISSED_NIGHTS}+ nights missed`;
export const FOLLOW_UP_FILTER = `Missed the last ${FOLLOW_UP_MISSED_NIGHTS}+ nights (participants still in the study)`;

/** "1 sleep log", "3 entries". */
export const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "Linen · day 3 of 14", "Study complete". */
export function phaseText(study: NonNullable<AdminUserListItem['study']>): string {
  if (study.phase === 'completed') return 'Study complete';
  return `${study.phaseName} · day ${study.dayInPhase} of ${study.daysInPhase}`;
}

export const PHASE_FILTERS: { value: AdminPhaseFilter | 'all'; label: string }[] = [
  { value: 'all', label: 'All phases' },
  { value: 'not_enrolled', label: 'Not enrolled' },
  { value: 'polyester', label: 'Polyester' },
  { value: 'washout', label: 'Washout' },
  { value: 'linen', label: 'Linen' },
  { value: 'completed', label: 'Study complete' },
];

export const SORTS: { value: `${AdminUserSort}:${'asc' | 'desc'}`; label: string }[] = [
  { value: 'joined:desc', label: 'Newest members first' },
  { value: 'joined:asc', label: 'Oldest members first' },
  { value: 'name:asc', label: 'Name, A to Z' },
  { value: 'compliance:asc', label: 'Lowest study compliance' },
  { value: 'compliance:desc', label: 'Highest study compliance' },
  { value: 'lastLog:asc', label: 'Longest since last log' },
  { value: 'lastLog:desc', label: 'Most recent log' },
];

export const ACTION_LABELS: Record<AdminAuditAction, string> = {
  participant_viewed: 'Viewed details',
  users_exported: 'Exported users data',
  sleep_exported: 'Exported sleep study data',
  research_downloaded: 'Downloaded the research export',
  role_granted: 'Granted the admin role',
  role_revoked: 'Revoked the admin role',
  account_deleted: 'Deleted the account',
};

/** Who did it: the admin's name and e-mail; the command line for a role granted there; a deleted account. */
export function actorText(actor: AuditPerson | null): { name: string; email: string | null } {
  if (actor === null) return { name: 'Command line (admin:grant)', email: null };
  if (actor.id === null || actor.name === null) return { name: 'A deleted account', email: null };
  return { name: actor.name, email: actor.email };
}

export function subjectText(subject: AuditPerson | null): { name: string; email: string | null } {
  if (subject === null) return { name: 'Everyone', email: null };
  if (subject.name === null) return { name: 'A deleted account', email: null };
  return { name: subject.name, email: subject.email };
}
