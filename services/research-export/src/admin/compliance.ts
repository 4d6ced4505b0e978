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
 * Study nights due on study day N, the study day of her current night (the night she is in
 * or sleeps next; currentNight in libs/contracts): every night before it has ended, at 04:00
 * her time (as her home page and the research export's missing-night rule count them), so
 * nights 1 to N - 1 are due, at most the study's 42.
 */
export function nightsElapsed(studyDay: number): number {
  return Math.min(studyLength(), Math.max(0, studyDay - 1));
}

/**
 * Where she stands tonight and how faithfully she logs: the phase and day of `tonight`, her
 * current night (the protocol's engine), and nights logged ÷ study nights elapsed × 100 (null
 * before the first is due). `nightsLogged` counts her nights of study days 1 to nightsElapsed(day).
 */
export function studyProgress(studyStartDate: string, tonight: string, nightsLogged: number): AdminStudyProgress {
  const day = studyDayOf(studyStartDate, tonight)!;
  const status = studyStatus(day);
  const elapsed = nightsElapsed(day);
  return {
    studyStartDate,
    // (she consented between midnight and 04:00: her study starts with the night to come)
    day: Math.max(day, 1),
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
