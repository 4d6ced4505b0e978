import { describe, expect, it } from 'vitest';
import { lastLogText } from './admin-display';

describe('lastLogText', () => {
  it('says how many nights before her current one her last night was', () => {
    expect(lastLogText({ lastLogDate: '2026-11-20', daysSinceLastLog: 4 })).toBe('Nov 20, 2026 (3 nights missed since)');
    expect(lastLogText({ lastLogDate: '2026-11-22', daysSinceLastLog: 2 })).toBe('Nov 22, 2026 (1 night missed since)');
    expect(lastLogText({ lastLogDate: '2026-11-23', daysSinceLastLog: 1 })).toBe('Nov 23, 2026 (last night)');
    expect(lastLogText({ lastLogDate: '2026-11-24', daysSinceLastLog: 0 })).toBe('Nov 24, 2026 (tonight)');
    expect(lastLogText({ lastLogDate: '2026-11-25', daysSinceLastLog: -1 })).toBe('Nov 25, 2026 (logged ahead)');
    expect(lastLogText({ lastLogDate: null, daysSinceLastLog: null })).toBeNull();
  });

  it("after her study counts only its nights: none after its last, else the study's last ones she missed", () => {
    const study = {
      studyStartDate: '2026-10-10',
      day: 60,
      phase: 'completed' as const,
      phaseName: 'Study Complete',
      dayInPhase: null,
      daysInPhase: null,
      nightsElapsed: 42,
      nightsLogged: 42,
      compliancePercent: 100,
    };
    // night 42 is 2026-11-20
    expect(lastLogText({ lastLogDate: '2026-11-20', daysSinceLastLog: 18, study })).toBe("Nov 20, 2026 (the study's last night)");
    // logged after it: which of its last nights she missed is not known from this date (it said "study complete")
    expect(lastLogText({ lastLogDate: '2026-11-25', daysSinceLastLog: 13, study })).toBe('Nov 25, 2026 (after her study)');
    expect(lastLogText({ lastLogDate: '2026-11-17', daysSinceLastLog: 21, study })).toBe("Nov 17, 2026 (the study's last 3 nights missed)");
    expect(lastLogText({ lastLogDate: '2026-11-19', daysSinceLastLog: 19, study })).toBe("Nov 19, 2026 (the study's last night missed)");
  });
});
