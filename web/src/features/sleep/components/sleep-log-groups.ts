import type { SleepLog, StudyPhase } from '@sleepweave/contracts';

export const PHASE_NAMES: Record<StudyPhase, string> = {
  polyester: 'Polyester',
  washout: 'Washout',
  linen: 'Linen',
  completed: 'Study complete',
};

export interface PhaseGroup {
  phase: StudyPhase;
  name: string;
  /** Newest first. */
  logs: SleepLog[];
  /** Rounded mean of the nights with a score; null without one. */
  averageScore: number | null;
}

/**
 * Her nights by the phase each was logged in, the phase with the newest night first and
 * each phase's nights newest first (a night's phase is the one stored with it). Pure.
 */
export function groupByPhase(logs: SleepLog[]): PhaseGroup[] {
  const newestFirst = [...logs].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const groups = new Map<StudyPhase, SleepLog[]>();
  for (const log of newestFirst) {
    const group = groups.get(log.phase);
    if (group) group.push(log);
    else groups.set(log.phase, [log]);
  }
  return [...groups].map(([phase, nights]) => {
    const scores = nights.map((log) => log.sleepScore).filter((score): score is number => score !== null);
    return {
      phase,
      name: PHASE_NAMES[phase],
      logs: nights,
      averageScore: scores.length === 0 ? null : Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length),
    };
  });
}
