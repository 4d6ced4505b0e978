import { describe, expect, it } from 'vitest';
import { formatDuration, formatDurationInput, parseDuration, sleepExceedsBed, stagesExceedSleep } from './durations.ts';

describe('parseDuration', () => {
  it.each([
    ['7h32m', 452],
    ['15m', 15],
    ['1h25m', 85],
    ['7h', 420],
    ['7h 32m', 452],
    [' 7 H 5 M ', 425],
    ['7hrs 10min', 430],
    ['45 minutes', 45],
    ['90m', 90],
    ['0m', 0],
    ['7:32', 452],
    ['24h', 1440],
  ])('%j is %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toEqual({ ok: true, minutes });
  });

  it('reads empty text as not recorded', () => {
    expect(parseDuration('')).toEqual({ ok: true, minutes: null });
    expect(parseDuration('   ')).toEqual({ ok: true, minutes: null });
  });

  it.each([
    ['7', 'Use hours and minutes, like 7h32m, 15m or 1h25m'],
    ['abc', 'Use hours and minutes, like 7h32m, 15m or 1h25m'],
    ['7h32', 'Use hours and minutes, like 7h32m, 15m or 1h25m'],
    ['-5m', 'Use hours and minutes, like 7h32m, 15m or 1h25m'],
    ['7.5h', 'Use hours and minutes, like 7h32m, 15m or 1h25m'],
    ['m', 'Use hours and minutes, like 7h32m, 15m or 1h25m'],
    ['1h75m', 'Minutes must be under 60 when hours are given, like 1h25m'],
    ['7:75', 'Minutes must be under 60 when hours are given, like 1h25m'],
    ['25h', 'A duration can be at most 24h'],
    ['1500m', 'A duration can be at most 24h'],
  ])('refuses %j: %s', (text, error) => {
    expect(parseDuration(text)).toEqual({ ok: false, error });
  });
});

describe('formatDuration', () => {
  it.each([
    [452, '7h 32m'],
    [420, '7h'],
    [15, '15m'],
    [60, '1h'],
    [0, '0m'],
    [null, '0m'],
    [undefined, '0m'],
    [89.6, '1h 30m'],
  ])('%s minutes show as %j', (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });

  it.each([
    [452, '7h32m'],
    [120, '2h'],
    [15, '15m'],
    [0, '0m'],
    [null, ''],
  ])('%s minutes go back into a field as %j, which parses to the same', (minutes, text) => {
    expect(formatDurationInput(minutes)).toBe(text);
    expect(parseDuration(text)).toEqual({ ok: true, minutes });
  });
});

describe("a night's durations that cannot all be right", () => {
  const night = (total: number | null, bed: number | null, rem: number | null, deep: number | null) => ({
    totalSleepMinutes: total,
    timeInBedMinutes: bed,
    remMinutes: rem,
    deepMinutes: deep,
  });

  it.each([
    [night(481, 480, null, null), true],
    [night(480, 480, null, null), false],
    [night(481, null, null, null), false],
    [night(null, 480, null, null), false],
  ])('total sleep longer than time in bed: %j → %s', (durations, expected) => {
    expect(sleepExceedsBed(durations)).toBe(expected);
  });

  it.each([
    [night(300, null, 200, 101), true],
    [night(300, null, 200, 100), false],
    [night(300, null, 400, null), false],
    [night(null, null, 400, 300), false],
  ])('REM and deep sleep longer than total sleep: %j → %s', (durations, expected) => {
    expect(stagesExceedSleep(durations)).toBe(expected);
  });
});
