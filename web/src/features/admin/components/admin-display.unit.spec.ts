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
});
