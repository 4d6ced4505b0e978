import { describe, expect, it } from 'vitest';
import { SLEEP_LOG_FIELD_LIST, SLEEP_LOG_FIELDS } from './sleep-log-fields.ts';
import { studyEvents } from './study-events.ts';
import { SleepLog, SleepLogFields } from './study.ts';

describe('the sleep-log field list', () => {
  it("holds docs/product.md §3's 24 fields once, each with its own column", () => {
    expect(SLEEP_LOG_FIELDS).toHaveLength(24);
    expect(new Set(SLEEP_LOG_FIELD_LIST.map((f) => f.column)).size).toBe(24);
    expect(SLEEP_LOG_FIELDS).toEqual(expect.arrayContaining(['sleepwearMaterial', 'sleepQuality110', 'heatWakeups', 'comments']));
  });

  it('is what the request, the answer and the event carry', () => {
    expect(Object.keys(SleepLogFields.shape)).toEqual(SLEEP_LOG_FIELDS);
    const answerFields = Object.keys(SleepLog.shape).filter((key) => SLEEP_LOG_FIELDS.includes(key as never));
    expect(answerFields).toEqual(SLEEP_LOG_FIELDS);
    const eventKeys = Object.keys(studyEvents['study.sleep_log.recorded'].shape);
    expect(eventKeys).toEqual(expect.arrayContaining(SLEEP_LOG_FIELDS));
  });

  it('checks ranges with the labels the form shows, and accepts every bound', () => {
    for (const field of SLEEP_LOG_FIELD_LIST) {
      if (field.kind !== 'integer' && field.kind !== 'decimal' && field.kind !== 'duration') continue;
      expect(SleepLogFields.safeParse({ [field.key]: field.min }).success, field.key).toBe(true);
      expect(SleepLogFields.safeParse({ [field.key]: field.max }).success, field.key).toBe(true);
      const above = SleepLogFields.safeParse({ [field.key]: field.max + 1 });
      expect(above.error?.issues[0]?.message, field.key).toContain(field.label);
    }
  });

  it('lets an old event with a value outside a later range still be read', () => {
    const schema = studyEvents['study.sleep_log.recorded'].shape;
    expect(schema.sleepScore.safeParse(140).success).toBe(true);
    expect(schema.morningMood.safeParse('Sleepy').success).toBe(true);
  });
});
