import { SleepLog } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkedAgainstZod, responseJsonSchema, serializerCompilerFor, serializerModeFromEnv } from './serializer.ts';

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/api/sleep/log/:date', httpStatus: '200' }) as never;

const night = {
  id: '7f0b6a52-6c0e-4c2a-9b39-8f3f1b7e2a11',
  userId: '1d5e3c9a-2b4f-4e61-8a7d-5c0f9e8b7a62',
  date: '2026-11-20',
  studyDay: 5,
  phase: 'polyester',
  recommendedMaterial: '100% Polyester',
  sleepwearMaterial: null,
  sleepScore: 82,
  totalSleepMinutes: 452.5,
  sleepEfficiency: null,
  timeInBedMinutes: 500,
  restingHr: 56,
  restfulness: null,
  remMinutes: 95,
  deepMinutes: 70,
  latencyMinutes: null,
  timingScore: null,
  avgSpo2: 96.5,
  breathingRegularity: 'Optimal',
  lowestHr: null,
  avgHrv: 41.5,
  sleepQuality110: 7,
  restfulnessSelf: null,
  morningMood: 'Refreshed',
  dreamRecall: false,
  fabricComfort: null,
  emotionalCalm: 8,
  heatWave: true,
  heatWakeups: 0,
  comments: 'Hot flash around 3am, "again"\n',
  createdAt: '2026-11-21T07:00:00.000Z',
  updatedAt: '2026-11-21T07:00:00.000Z',
};

describe('the fast response serializer', () => {
  it('writes what zod writes: every field, nulls, quotes and line breaks, and nothing the schema does not name', () => {
    const fast = serializerCompilerFor('fast')(route(SleepLog));
    const zod = JSON.parse(serializerCompilerFor('checked')(route(SleepLog))(night)) as unknown;
    const text = fast({ ...night, passwordHash: 'not for the client' });
    expect(JSON.parse(text)).toEqual(zod);
    expect(JSON.parse(text)).toEqual(night);
    expect(text).not.toContain('passwordHash');
  });

  it('refuses an answer without a required field, as zod does (a 500, never a partial answer)', () => {
    const { date: _date, ...withoutDate } = night;
    expect(() => serializerCompilerFor('fast')(route(SleepLog))(withoutDate)).toThrow(/date/);
    expect(() => serializerCompilerFor('checked')(route(SleepLog))(withoutDate)).toThrow();
  });

  it('writes a nullable single-type value as one type with null, not a union to try', () => {
    const schema = responseJsonSchema(z.object({ mood: z.enum(['Calm', 'Tired']).nullable(), list: z.array(z.string()).nullable() }));
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.mood).toEqual({ type: ['string', 'null'], enum: ['Calm', 'Tired'] });
    expect(properties.list!.anyOf).toBeDefined(); // arrays and objects keep their union
  });

  it('keeps zod for a schema JSON Schema cannot express', () => {
    const schema = z.object({ at: z.date() });
    expect(() => responseJsonSchema(schema)).toThrow();
    expect(serializerCompilerFor('fast')(route(schema))({ at: new Date('2026-11-20T00:00:00Z') })).toBe(
      '{"at":"2026-11-20T00:00:00.000Z"}',
    );
  });

  it('under test, a disagreement with zod is an error naming the route', () => {
    const zod = () => '{"a":1}';
    expect(checkedAgainstZod({ method: 'GET', url: '/x' }, zod, () => '{"a":1}')({})).toBe('{"a":1}');
    expect(() => checkedAgainstZod({ method: 'GET', url: '/x' }, zod, () => '{"a":2}')({})).toThrow(
      'the fast serializer of GET /x wrote {"a":2} where zod wrote {"a":1}',
    );
  });

  it('is checked under vitest and fast anywhere else', () => {
    expect(serializerModeFromEnv({ NODE_ENV: 'test' })).toBe('checked');
    expect(serializerModeFromEnv({ NODE_ENV: 'production' })).toBe('fast');
    expect(serializerModeFromEnv({})).toBe('fast');
  });
});
