import { studyDayOf, studyLength, studyStatus, type AdminStudyProgress } from '@sleepweave/contracts';

const DAY_MS = 86_400_000;

/**
 * The spec's compliance (docs/product.md §9): sleep logs ÷ days since joining (at least 1)
 * × 100, rounded. Days since joining are whole days (24 hours) from her registration. It
 * counts every log, whenever she joined the study, so it can pass 100 (a member who logs
 * several past nights on her first day); the study compliance below is the one to follow up on.
 */
export function specCompliancePercent(sleepLogs: number, joinedAt: Date, now: Date): number {
  const days = Math.max(1, Math.floor((now.getTime() - joinedAt.getTime()) / DAY_MS));
  return Math.round((sleepLogs / days) * 100);
}

/**
 * Study nights due by `today` (her calendar date): the night of study day D is due once
 * its morning has come, on D + 1 (as the research export's missing-night rule counts them),
 * so on study day N the nights 1 to N - 1 are due, at most the study's 42.
 */
export function nightsElapsed(studyDay: number): number {
  return Math.min(studyLength(), Math.max(0, studyDay - 1));
}

/**
 * Where she stands today and how faithfully she logs: the phase and day (the protocol's
 * engine), and nights logged ÷ study nights elapsed × 100 (null before the first is due).
 * `nightsLogged` counts her nights of study days 1 to nightsElapsed(day).
 */
export function studyProgress(studyStartDate: string, today: string, nightsLogged: number): AdminStudyProgress {
  const day = studyDayOf(studyStartDate, today)!;
  const status = studyStatus(day);
  const elapsed = nightsElapsed(day);
  return {
    studyStartDate,
    day,
    phase: status.phase,
    phaseName: status.phaseName,
    dayInPhase: status.dayInPhase,
    daysInPhase: status.daysInPhase,
    nightsElapsed: elapsed,
    nightsLogged,
    compliancePercent: elapsed === 0 ? null : Math.round((nightsLogged / elapsed) * 100),
  };
}

/** Whole years on `today` (both YYYY-MM-DD); null without a date of birth. */
export function ageOn(dateOfBirth: string | null, today: string): number | null {
  if (!dateOfBirth) return null;
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
