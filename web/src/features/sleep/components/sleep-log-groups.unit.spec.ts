import { describe, expect, it } from 'vitest';
import { night } from './sleep-log.fixture';
import { groupByPhase } from './sleep-log-groups';

describe('groupByPhase', () => {
  it('groups her nights by phase: the newest phase first, each newest first, with its mean score', () => {
    const logs = [
      night('2026-05-02', { studyDay: 2, phase: 'polyester', sleepScore: 70 }),
      night('2026-05-16', { studyDay: 16, phase: 'washout', sleepScore: 81 }),
      night('2026-05-01', { studyDay: 1, phase: 'polyester', sleepScore: 75 }),
      night('2026-05-15', { studyDay: 15, phase: 'washout', sleepScore: null }),
      night('2026-05-14', { studyDay: 14, phase: 'polyester', sleepScore: 76 }),
    ];
    const groups = groupByPhase(logs);
    expect(groups.map((g) => [g.name, g.logs.map((log) => log.studyDay), g.averageScore])).toEqual([
      ['Washout', [16, 15], 81],
      ['Polyester', [14, 2, 1], 74],
    ]);
  });

  it('has no group for a phase without nights, and no mean without a score', () => {
    expect(groupByPhase([])).toEqual([]);
    const [only] = groupByPhase([night('2026-06-20', { studyDay: 51, phase: 'completed' })]);
    expect(only).toMatchObject({ phase: 'completed', name: 'Study complete', averageScore: null });
  });
});
