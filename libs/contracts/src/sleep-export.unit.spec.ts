import { describe, expect, it } from 'vitest';
import { noNightsInRangeMessage, SLEEP_EXPORT_MESSAGES, SleepExportQuery, sleepExportFileName } from './sleep-export.ts';

const firstMessage = (query: Record<string, unknown>) => {
  const parsed = SleepExportQuery.safeParse(query);
  return parsed.success ? null : parsed.error.issues[0]!.message;
};

describe('SleepExportQuery', () => {
  it('takes two real dates in order and a format', () => {
    expect(SleepExportQuery.parse({ startDate: '2025-03-01', endDate: '2025-03-01', format: 'pdf' })).toEqual({
      startDate: '2025-03-01',
      endDate: '2025-03-01',
      format: 'pdf',
    });
  });

  it.each([
    [{ endDate: '2025-03-10', format: 'xlsx' }, SLEEP_EXPORT_MESSAGES.startRequired],
    [{ startDate: '  ', endDate: '2025-03-10', format: 'xlsx' }, SLEEP_EXPORT_MESSAGES.startRequired],
    [{ startDate: '2025-03-01', endDate: '', format: 'xlsx' }, SLEEP_EXPORT_MESSAGES.endRequired],
    [{ startDate: '2025-13-01', endDate: '2025-03-10', format: 'xlsx' }, SLEEP_EXPORT_MESSAGES.badStart],
    [{ startDate: '2025-03-01', endDate: '2025-02-29', format: 'xlsx' }, SLEEP_EXPORT_MESSAGES.badEnd],
    [{ startDate: '2025-03-02', endDate: '2025-03-01', format: 'xlsx' }, SLEEP_EXPORT_MESSAGES.endBeforeStart],
    [{ startDate: '2025-03-01', endDate: '2025-03-02', format: 'XLSX' }, 'Format must be xlsx or pdf.'],
  ])('refuses %j: "%s"', (query, message) => {
    expect(firstMessage(query)).toBe(message);
  });

  it('takes at most 366 days, both ends counted (a leap year whole)', () => {
    expect(firstMessage({ startDate: '2024-01-01', endDate: '2024-12-31', format: 'xlsx' })).toBeNull();
    expect(firstMessage({ startDate: '2025-01-01', endDate: '2026-01-01', format: 'xlsx' })).toBeNull();
    expect(firstMessage({ startDate: '2025-01-01', endDate: '2026-01-02', format: 'xlsx' })).toBe(SLEEP_EXPORT_MESSAGES.tooLong);
  });
});

describe('file name and messages', () => {
  it('names the file with her dates', () => {
    expect(sleepExportFileName({ startDate: '2025-03-01', endDate: '2025-04-11', format: 'xlsx' })).toBe(
      'sleepweave-sleep-2025-03-01-to-2025-04-11.xlsx',
    );
  });

  it('says which dates had no nights, written as the screens write dates', () => {
    expect(noNightsInRangeMessage('2025-03-01', '2025-03-01')).toBe(
      'You have no sleep logged on Mar 01, 2025. Choose dates with logged nights.',
    );
    expect(noNightsInRangeMessage('2025-12-28', '2026-01-09')).toBe(
      'You have no sleep logged between Dec 28, 2025 and Jan 09, 2026. Choose dates with logged nights.',
    );
  });
});
